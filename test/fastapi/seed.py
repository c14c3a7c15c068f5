"""Deterministic in-memory data for the reference FastAPI app.

Everything here is a pure function of nothing: ids are uuid5 names under one namespace, timestamps
are fixed integer Unix seconds before 2026-01-01, so every start of the app holds the same world
(until a bulk add changes the dimension values).

The world:
- 3 teams: ``primary`` (48 personas, the caller's team in tests), ``other`` (12 personas, 3 of them
  presets), ``empty`` (no persona);
- 3 policies: ``primary`` (137 rules, team primary), ``small`` (3 rules, team primary),
  ``other_team`` (20 rules, team other);
- 2 demographic dimensions (not team-scoped): ``primary`` (5 values) and ``other`` (4 values);
- 4 users: a reader of team primary, a reader of team other, a super admin, one without permissions
  (tokens are minted by the tests, with these ``sub`` values).
"""
from typing import Any, Dict, List
from uuid import UUID, uuid5

NAMESPACE = UUID("6f1d3c2a-9b8e-4f70-a1d2-c3b4e5f60718")
BASE_TIME = 1_750_000_000  # 2025-06-15T15:06:40Z; every seeded timestamp lies before 2026-01-01


def make_id(name: str) -> str:
    return str(uuid5(NAMESPACE, name))


TEAMS = {key: make_id(f"team:{key}") for key in ("primary", "other", "empty")}
USERS = {key: make_id(f"user:{key}") for key in ("reader", "other_reader", "admin", "nobody")}
POLICIES = {key: make_id(f"policy:{key}") for key in ("primary", "small", "other_team")}
DIMENSIONS = {key: make_id(f"dimension:{key}") for key in ("primary", "other")}

# Name, description and role use disjoint vocabularies, so a search term found in one field alone
# exists (the verifier needs one per field to tell an ignored search field).
FIRST_NAMES = [
    "Amara", "Bruno", "Chiara", "Dmitri", "Elena", "Farida", "Gustav", "Hiroko", "Ingrid", "Jamal",
    "Kwame", "Lorena", "Mikhail", "Nadia", "Oswald", "Priya", "Quentin", "Rosalind", "Santiago", "Tamsin",
]
LAST_NAMES = ["Okonkwo", "Lindqvist", "Moreau", "Takahashi", "Ferreira", "Novak", "Castellano", "Whitfield"]
ROLES = [
    ("Billing Specialist", "Handles invoices and payment disputes"),
    ("Network Engineer", "Maintains routers and firewalls"),
    ("Compliance Officer", "Reviews regulatory obligations"),
    ("Marketing Analyst", "Studies campaign performance"),
    ("Warehouse Supervisor", "Coordinates inventory shipments"),
    ("Clinical Researcher", "Runs observational trials"),
    ("Helpdesk Agent", None),
]
DESCRIPTIONS = [
    "Probes refund workflows with unusual requests",
    "Asks detailed questions about subscription tiers",
    "Attempts to extract confidential pricing spreadsheets",
    "Explores onboarding tutorials step by step",
    None,
    "Pushes the assistant toward jailbreak prompts",
]
KNOWLEDGE = ["beginner", "intermediate", "advanced", "expert"]
SKILL = ["novice", "competent", "proficient", "expert"]
INTENTS = ["benign", "curious", "adversarial", "malicious"]
LANGUAGES = ["en", "fr", "de", "es", "en"]
PRESET_CATEGORIES = ["customer-support", "security-testing"]


def _access_permissions(index: int) -> Any:
    kind = index % 3
    if kind == 0:
        return {
            "privilege_level": ["guest", "user", "power_user", "admin", "super_admin"][index % 5],
            "allowed_agents": ["support-bot"] if index % 2 else None,
            "allowed_tools": ["search", "crm.lookup"] if index % 4 == 0 else None,
            "restricted_actions": ["refund.issue"] if index % 6 == 0 else None,
            "data_access_scope": ["own", "team", "organization", "global", None][index % 5],
        }
    if kind == 1:
        return {"notes": f"free-form permissions #{index}", "max_refund_eur": 50 + index}
    return None


def _persona(team_key: str, index: int, offset: int) -> Dict[str, Any]:
    role, role_description = ROLES[(index + offset) % len(ROLES)]
    is_preset = (index + offset) % 5 == 0
    return {
        "id": make_id(f"persona:{team_key}:{index}"),
        "team_id": TEAMS[team_key],
        "name": f"{FIRST_NAMES[(index + offset) % len(FIRST_NAMES)]} {LAST_NAMES[(index * 3 + offset) % len(LAST_NAMES)]}",
        "description": DESCRIPTIONS[(index + offset) % len(DESCRIPTIONS)],
        "role": role,
        "role_description": role_description,
        "knowledge_level": KNOWLEDGE[index % 4],
        "skill_level": SKILL[(index // 4) % 4],
        "intent": INTENTS[(index + index // 4) % 4],
        "language": LANGUAGES[index % len(LANGUAGES)],
        "access_permissions": _access_permissions(index),
        "is_preset": is_preset,
        "preset_category": PRESET_CATEGORIES[index % 2] if is_preset else None,
        "tags": ["seed", INTENTS[index % 4]] if index % 3 else None,
        "icon_filename": f"persona-{index % 7}.svg" if index % 2 else None,
        # Pairs share a created_at, so the tie-break of the order matters.
        "created_at": BASE_TIME - (index // 2) * 3_600 - offset * 7,
        "updated_at": BASE_TIME - (index // 2) * 3_600 - offset * 7 + (index % 4) * 60,
        "created_by": USERS["reader"] if team_key == "primary" else USERS["other_reader"],
    }


PERSONAS: List[Dict[str, Any]] = [_persona("primary", i, 0) for i in range(48)] + [_persona("other", i, 3) for i in range(12)]

RULE_TYPES = ["permission", "prohibition", "obligation", "recommendation"]
CATEGORIES = ["privacy", "ethics", "security", "compliance", "operational", "brand", "custom"]
STATUSES = ["draft", "approved", "rejected", "modified"]
ACTIONS = ["share_personal_data", "issue_refund", "disclose_pricing", "escalate_ticket", "log_conversation"]
CONSEQUENCE_ACTIONS = ["block", "warn", "log", "escalate"]
SEVERITIES = ["low", "medium", "high", "critical"]
ASSIGNEES = ["agent", "user", "operator"]
OPERATORS = ["eq", "neq", "lt", "lteq", "gt", "gteq", "isAnyOf", "isNoneOf"]


def _rule(policy_key: str, index: int) -> Dict[str, Any]:
    status = STATUSES[index % 4]
    reviewed = status != "draft"
    created = BASE_TIME - 5_000_000 + (index // 3) * 600  # triples share a created_at: rule_id breaks the tie
    constraints = [
        {"left_operand": "purpose", "operator": OPERATORS[(index + n) % len(OPERATORS)], "right_operand": f"value-{n}"}
        for n in range(index % 3)
    ]
    llm = index % 2 == 0
    return {
        "id": make_id(f"rule:{policy_key}:{index}"),
        "policy_id": POLICIES[policy_key],
        # Not zero-padded past 99 on purpose: rule_id order is string order, as the verifier compares it.
        "rule_id": f"R-{index:03d}",
        "rule_type": RULE_TYPES[index % 4],
        "action": ACTIONS[index % len(ACTIONS)],
        "consequence": {
            "action": CONSEQUENCE_ACTIONS[index % 4],
            "severity": SEVERITIES[(index // 2) % 4],
            "message": f"Rule {index} was triggered",
        },
        "natural_language": f"The agent must respect rule {index} about {ACTIONS[index % len(ACTIONS)].replace('_', ' ')}.",
        "created_at": created,
        "updated_at": created + (index % 5) * 120,
        "target": ["customer_data", "pricing", "tickets"][index % 3],
        "assignee": ASSIGNEES[index % 3],
        "constraints": constraints,
        "constraint_logic": "AND" if index % 2 else "OR",
        "provenance": {
            "extracted_by": "llm" if llm else "manual",
            # The description types model_used as a string (not "string or null"): a manual rule says "".
            "model_used": "gpt-4o-mini" if llm else "",
            "confidence_score": round(0.5 + (index % 50) / 100, 2),
            "source_location": {
                "section": f"{1 + index // 10}.{index % 10}",
                "paragraph": 1 + index % 7,
                "char_start": index * 40,
                "char_end": index * 40 + 120,
                "source_text": f"Section text of rule {index}.",
            },
        },
        "category": CATEGORIES[index % len(CATEGORIES)],
        "tags": ["seed"] + (["pii"] if index % 4 == 0 else []),
        "status": status,
        "reviewed_by": USERS["admin"] if reviewed else None,
        "reviewed_at": created + 86_400 if reviewed else None,
        "review_notes": f"Reviewed rule {index}" if reviewed else None,
    }


POLICY_RECORDS = {
    POLICIES["primary"]: {"id": POLICIES["primary"], "team_id": TEAMS["primary"], "rules": [_rule("primary", i) for i in range(137)]},
    POLICIES["small"]: {"id": POLICIES["small"], "team_id": TEAMS["primary"], "rules": [_rule("small", i) for i in range(3)]},
    POLICIES["other_team"]: {"id": POLICIES["other_team"], "team_id": TEAMS["other"], "rules": [_rule("other_team", i) for i in range(20)]},
}


def _values(dimension_key: str, values: List[str]) -> List[Dict[str, Any]]:
    return [
        {
            "id": make_id(f"value:{dimension_key}:{value}"),
            "dimension_id": DIMENSIONS[dimension_key],
            "value": value,
            "created_at": BASE_TIME - 9_000_000 + n * 60,
            "display_name": value.replace("-", " to ") if dimension_key == "primary" else value.title(),
            "value_metadata": {"seeded": True},
            "sort_order": n + 1,
        }
        for n, value in enumerate(values)
    ]


def dimension_values() -> Dict[str, List[Dict[str, Any]]]:
    """A fresh copy of the seeded values, by dimension id (bulk adds append to it)."""
    return {
        DIMENSIONS["primary"]: _values("primary", ["18-24", "25-34", "35-44", "45-54", "55-plus"]),
        DIMENSIONS["other"]: _values("other", ["north", "south", "east", "west"]),
    }


def seeded_ids() -> Dict[str, Any]:
    """What the start-up line prints: every id a test needs, by role."""
    return {
        "teams": dict(TEAMS),
        "users": dict(USERS),
        "policies": dict(POLICIES),
        "dimensions": dict(DIMENSIONS),
        "counts": {
            "personas": {key: sum(1 for p in PERSONAS if p["team_id"] == team) for key, team in TEAMS.items()},
            "rules": {key: len(POLICY_RECORDS[policy]["rules"]) for key, policy in POLICIES.items()},
        },
    }
