"""Reference FastAPI application of the Agent Management Console API (personas, demographic values, policy rules).

Written from ../shared/spec/agent-console-api.md the way an independent team would write it, in FastAPI 0.92 /
pydantic 1.10 style (Debian 12's python3-fastapi), so that `agent-console-mock verify` can be run against a real
FastAPI server in CI. It is NOT the mock: where the description is silent it makes its own ordinary choices
(FastAPI 0.92's HTTPBearer answers 403 without credentials; pydantic 1 writes its own 422 texts; /openapi.json is
OpenAPI 3.0.2 with nullable fields as plain types).

Configuration (environment):
    JWT_SECRET   required: the HS256 secret tokens are checked with. The app mints no token: tests sign their own
                 (claims: sub, team_id, permissions ["persona:read", "policy:read"], is_super_admin, exp).
    VARIANTS     optional: comma-separated names from the table below, e.g. "bug:offset-ignored,legit:bulk-200".
    The port is uvicorn's: /usr/bin/python3 -m uvicorn app:app --app-dir test/fastapi --host 127.0.0.1 --port 8000

At import (before uvicorn serves) the app prints ONE line on stdout:
    {"ids": {...seeded ids...}, "variants": [...active...], "known": [...every name of the table...]}
"""
import json
import os
import sys
import threading
import time
from datetime import datetime
from enum import Enum
from typing import Any, Dict, List, Optional, Union
from uuid import UUID, uuid4

import jwt
from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.security.utils import get_authorization_scheme_param
from pydantic import VERSION as PYDANTIC_VERSION
from pydantic import BaseModel, Field, StrictBool, StrictStr, ValidationError, conint, conlist, constr, parse_obj_as
from starlette.exceptions import HTTPException as StarletteHTTPException

import seed

# ---------------------------------------------------------------------------------------------------------------
# VARIANTS: every switch of the app, one line each. `bug:` plants a contract bug a verifier must catch; `legit:` is
# a choice the description leaves open (or another FastAPI/pydantic generation makes) that a verifier must accept.
# ---------------------------------------------------------------------------------------------------------------
VARIANTS: Dict[str, str] = {
    # planted bugs
    "bug:total-ignores-filters": "personas total counts the whole team, whatever intents/is_preset/search say",
    "bug:leak-other-team-presets": "personas of the team OR any preset: presets of other teams leak into the list",
    "bug:offset-ignored": "personas offset is accepted but not applied: every page is the first one",
    "bug:rules-no-auth": "the rules route has no auth dependency: anyone reads any policy's rules",
    "bug:bulk-not-atomic": "bulk add validates item by item while inserting: a bad item's 422 keeps the earlier ones",
    "bug:persona-missing-field": "the Persona response model forgot role_description, so it is never sent",
    "bug:string-timestamps": "Persona created_at/updated_at declared as datetime: sent as ISO strings",
    "bug:intents-ignored": "the intents filter is declared but never applied",
    "bug:search-skips-role": "search matches name and description only, not role",
    "bug:bulk-no-admin": "bulk add asks for a valid token only, not for a super admin",
    "bug:signature-not-verified": "JWTs are decoded without checking the signature",
    "bug:limit-no-maximum": "personas limit declared with ge=1 but no le=100: limit=101 is answered",
    "bug:unknown-policy-empty": "rules of an unknown policy answer 200 with an empty page instead of 404",
    "bug:duplicates-within-request": "bulk add skips values already in the dimension, but stores a value repeated in the request twice",
    "bug:rules-total-page": "rules total is the length of the page, not the number of rules of the policy",
    "bug:model-used-null": "Provenance.model_used declared Optional[str]: manual rules send null, the description says string",
    # legitimate variants
    "legit:missing-credentials-401": "no/non-Bearer Authorization: 401 + WWW-Authenticate (FastAPI >=0.122) instead of 0.92's 403 [profile missingCredentialsStatus]",
    "legit:bulk-200": "bulk add succeeds with 200 instead of 201 [profile bulkAddStatus]",
    "legit:bulk-202": "bulk add succeeds with 202 Accepted instead of 201 [profile bulkAddStatus]",
    "legit:bulk-reject-duplicates": "a duplicate value rejects the whole request: 409, nothing added [profile bulkDuplicates]",
    "legit:duplicates-stored": "no uniqueness rule: a duplicate value is stored and answered again [profile bulkDuplicates]",
    "legit:timestamps-ms": "every timestamp in milliseconds instead of seconds [profile timestampUnit]",
    "legit:rules-page-size-skip": "rules paging parameters named page_size/skip, default 50 [profile rulesPaging]",
    "legit:rules-newest-first": "rules ordered created_at descending (the description gives no order)",
    "legit:personas-by-name": "personas ordered by name, then id (the description gives no order)",
    "legit:declared-errors": "routes declare their 401/403/404/409 answers in /openapi.json (responses=...)",
    "legit:no-length-bounds": "bulk body declares no maxItems/minLength/maxLength (the description gives none)",
    "legit:intents-enum": "intents typed List[Intent]: an unknown intent is a 422 instead of matching nothing",
    "legit:strict-strings": "bulk item value is StrictStr: a number is refused instead of coerced to a string",
    "legit:bulk-fields-required": "every bulk item field required (the description leaves required/defaults open)",
    "legit:sort-order-zero": "a bulk item without sort_order gets 0 instead of the largest + 1 (defaults not shown)",
    "legit:other-team-404": "personas of a team outside the token: 404 'Team not found' instead of 403",
    "legit:team-id-required": "personas without team_id: 400 even when the token names a team ('described as required')",
    "legit:no-openapi": "FastAPI(openapi_url=None): no /openapi.json, as many production servers",
    "legit:extra-fields": "records carry fields beyond the description (persona avatar_url, rule version)",
    "legit:personas-oldest-first": "personas ordered created_at ascending, then id (the description gives no order)",
    "legit:rules-any-team": "the rules of any team's policy are readable: the description scopes personas to teams, not policies",
    # coding styles: the same contract, written the ways teams write FastAPI 0.92 apps
    "legit:schema-extra-nullable": "pydantic 1's usual OpenAPI fix: a Config.schema_extra marks every Optional field nullable: true",
    "legit:plain-optional": "personas query parameters as plain Optional defaults and conint bounds, without Query()",
    "legit:query-metadata": "personas query parameters with Query() titles, descriptions, examples and aliases (Python names differ)",
    "legit:return-annotation": "no response_model=: FastAPI >=0.89 takes each route's model from its return annotation",
    "legit:json-response": "routes return JSONResponse(jsonable_encoder(...)) by hand, with no model in /openapi.json",
    "legit:exception-handlers": "own RequestValidationError and HTTPException handlers that keep FastAPI's bodies and headers",
    "legit:bearer-optional-401": "HTTPBearer(auto_error=False): the app refuses missing credentials itself, 401 'Missing bearer token'",
}


def _active_variants() -> List[str]:
    names = [name.strip() for name in os.environ.get("VARIANTS", "").split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        sys.exit(f"unknown VARIANTS {unknown}; known: {', '.join(VARIANTS)}")
    return names


ACTIVE = set(_active_variants())


def on(name: str) -> bool:
    assert name in VARIANTS, name
    return name in ACTIVE


JWT_SECRET = os.environ.get("JWT_SECRET") or sys.exit("JWT_SECRET is required: the HS256 secret the tests sign their tokens with")
RULES_LIMIT, RULES_OFFSET, RULES_DEFAULT_LIMIT = ("page_size", "skip", 50) if on("legit:rules-page-size-skip") else ("limit", "offset", 100)
TIME_SCALE = 1000 if on("legit:timestamps-ms") else 1

app = FastAPI(title="Agent Management Console API", version="0.1.0", **({"openapi_url": None} if on("legit:no-openapi") else {}))


# ---------------------------------------------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------------------------------------------
class KnowledgeLevel(str, Enum):
    beginner = "beginner"
    intermediate = "intermediate"
    advanced = "advanced"
    expert = "expert"


class SkillLevel(str, Enum):
    novice = "novice"
    competent = "competent"
    proficient = "proficient"
    expert = "expert"


class Intent(str, Enum):
    benign = "benign"
    curious = "curious"
    adversarial = "adversarial"
    malicious = "malicious"


class PrivilegeLevel(str, Enum):
    guest = "guest"
    user = "user"
    power_user = "power_user"
    admin = "admin"
    super_admin = "super_admin"


class DataAccessScope(str, Enum):
    own = "own"
    team = "team"
    organization = "organization"
    global_ = "global"


def mark_optional_nullable(schema: Dict[str, Any], model: Any) -> None:
    """legit:schema-extra-nullable: pydantic 1 writes Optional[X] as X, so teams add OpenAPI 3.0's nullable."""
    properties = schema.get("properties", {})
    for field in model.__fields__.values():
        if field.allow_none and field.alias in properties:
            properties[field.alias]["nullable"] = True


# Every model of the API, so that one Config reaches all of them (pydantic 1 merges inherited Configs). A comment,
# not a docstring: pydantic 1 writes a docstring into each model's schema as its description.
class Model(BaseModel):
    if on("legit:schema-extra-nullable"):

        class Config:
            schema_extra = staticmethod(mark_optional_nullable)


class PersonaAccessPermissions(Model):
    privilege_level: PrivilegeLevel = PrivilegeLevel.user
    allowed_agents: Optional[List[str]] = None
    allowed_tools: Optional[List[str]] = None
    restricted_actions: Optional[List[str]] = None
    data_access_scope: Optional[DataAccessScope] = None

    class Config:
        # Without it pydantic 1 reads any free-form object as this model, filled with defaults.
        extra = "forbid"


PersonaTimestamp = datetime if on("bug:string-timestamps") else int


class Persona(Model):
    id: UUID
    team_id: UUID
    name: str
    description: Optional[str] = None
    role: str
    if not on("bug:persona-missing-field"):
        role_description: Optional[str] = None
    knowledge_level: KnowledgeLevel = KnowledgeLevel.intermediate
    skill_level: SkillLevel = SkillLevel.competent
    intent: Intent = Intent.benign
    language: str = "en"
    access_permissions: Optional[Union[PersonaAccessPermissions, Dict[str, Any]]] = None
    is_preset: bool = False
    preset_category: Optional[str] = None
    tags: Optional[List[str]] = None
    icon_filename: Optional[str] = None
    created_at: PersonaTimestamp
    updated_at: PersonaTimestamp
    created_by: UUID
    if on("legit:extra-fields"):
        avatar_url: Optional[str] = None


class PersonaListResponse(Model):
    results: List[Persona]
    total: int


class RuleType(str, Enum):
    permission = "permission"
    prohibition = "prohibition"
    obligation = "obligation"
    recommendation = "recommendation"


class RuleCategory(str, Enum):
    privacy = "privacy"
    ethics = "ethics"
    security = "security"
    compliance = "compliance"
    operational = "operational"
    brand = "brand"
    custom = "custom"


class RuleStatus(str, Enum):
    draft = "draft"
    approved = "approved"
    rejected = "rejected"
    modified = "modified"


class ExtractedBy(str, Enum):
    llm = "llm"
    manual = "manual"


class Consequence(Model):
    action: str
    severity: str
    message: str


class SourceLocation(Model):
    section: str
    paragraph: int
    char_start: int
    char_end: int
    source_text: str


class Provenance(Model):
    extracted_by: ExtractedBy
    if on("bug:model-used-null"):
        model_used: Optional[str] = None
    else:
        model_used: str
    confidence_score: float
    source_location: SourceLocation


class PolicyRule(Model):
    id: UUID
    policy_id: UUID
    rule_id: str
    rule_type: RuleType
    action: str
    consequence: Consequence
    natural_language: str
    created_at: int
    updated_at: int
    target: str
    assignee: str
    constraints: List[Dict[str, Any]]
    constraint_logic: str
    provenance: Provenance
    category: RuleCategory
    tags: List[str]
    status: RuleStatus
    reviewed_by: Optional[UUID] = None
    reviewed_at: Optional[int] = None
    review_notes: Optional[str] = None
    if on("legit:extra-fields"):
        version: int = 1


class PolicyRuleListResponse(Model):
    results: List[PolicyRule]
    total: int


# The same app runs under pydantic 2 (Debian trixie's FastAPI 0.115, test/fastapi/trixie.ts), where conlist's bound
# is named max_length.
LIST_MAX = "max_items" if PYDANTIC_VERSION.startswith("1.") else "max_length"

if on("legit:no-length-bounds"):
    ValueText = StrictStr if on("legit:strict-strings") else str
else:
    ValueText = constr(strict=on("legit:strict-strings"), min_length=1, max_length=255)


class DemographicValueCreate(Model):
    value: ValueText  # type: ignore[valid-type]
    if on("legit:bulk-fields-required"):
        display_name: str
        metadata: Dict[str, Any]
        sort_order: int
    else:
        display_name: Optional[str] = None
        metadata: Dict[str, Any] = Field(default_factory=dict)
        sort_order: Optional[int] = None


class BulkAddValues(Model):
    if on("bug:bulk-not-atomic"):
        values: List[Dict[str, Any]]  # validated item by item in the endpoint
    elif on("legit:no-length-bounds"):
        values: List[DemographicValueCreate]
    else:
        values: conlist(DemographicValueCreate, **{LIST_MAX: 1000})  # type: ignore[valid-type]


class DemographicValue(Model):
    id: UUID
    dimension_id: UUID
    value: str
    created_at: int
    display_name: str
    value_metadata: Dict[str, Any]
    sort_order: int


class HTTPError(Model):
    detail: str


def declared(*statuses: int) -> Dict[Union[int, str], Dict[str, Any]]:
    """The error answers a route declares in /openapi.json (only with legit:declared-errors)."""
    if not on("legit:declared-errors"):
        return {}
    return {status: {"model": HTTPError, "description": f"Error {status}"} for status in statuses}


def route_options(model: Any, errors: Dict[Union[int, str], Dict[str, Any]]) -> Dict[str, Any]:
    """How a route declares its answer: response_model= (the clean app), its return annotation, or not at all."""
    if on("legit:return-annotation"):
        return {"responses": errors}
    if on("legit:json-response"):
        # response_model=None: the answer is built by hand, and /openapi.json gives its schema as {}.
        return {"response_model": None, "responses": errors}
    return {"response_model": model, "responses": errors}


def answer(model: Any, content: Any, status: int = 200) -> Any:
    """legit:json-response: the route validates and encodes its answer itself, as FastAPI would have."""
    if not on("legit:json-response"):
        return content
    return JSONResponse(status_code=status, content=jsonable_encoder(parse_obj_as(model, content)))


if on("legit:exception-handlers"):
    # A team's own handlers (to log, or to add a request id) that keep FastAPI's bodies and headers.
    @app.exception_handler(RequestValidationError)
    async def validation_failed(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": jsonable_encoder(error.errors())}, headers={"X-Request-ID": str(uuid4())})

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = {**(getattr(error, "headers", None) or {}), "X-Request-ID": str(uuid4())}
        return JSONResponse(status_code=error.status_code, content={"detail": error.detail}, headers=headers)


# ---------------------------------------------------------------------------------------------------------------
# Auth: HTTPBearer + HS256 JWT
# ---------------------------------------------------------------------------------------------------------------
class Claims(BaseModel):
    sub: constr(strict=True, min_length=1)  # type: ignore[valid-type]
    team_id: Optional[StrictStr] = None
    permissions: List[StrictStr] = []
    is_super_admin: StrictBool = False


class HTTPBearer401(HTTPBearer):
    """FastAPI >=0.122's answer: 401 + WWW-Authenticate: Bearer for missing, empty or non-Bearer credentials."""

    async def __call__(self, request: Request) -> Optional[HTTPAuthorizationCredentials]:
        authorization = request.headers.get("Authorization")
        scheme, credentials = get_authorization_scheme_param(authorization)
        if not (authorization and scheme and credentials) or scheme.lower() != "bearer":
            raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "Bearer"})
        return HTTPAuthorizationCredentials(scheme=scheme, credentials=credentials)


if on("legit:missing-credentials-401"):
    bearer = HTTPBearer401()
else:
    bearer = HTTPBearer(auto_error=not on("legit:bearer-optional-401"))


def current_user(credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer)) -> Claims:
    if credentials is None:
        # legit:bearer-optional-401: HTTPBearer(auto_error=False) leaves missing or non-Bearer credentials to the app.
        raise HTTPException(status_code=401, detail="Missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    try:
        if on("bug:signature-not-verified"):
            payload = jwt.decode(credentials.credentials, options={"verify_signature": False})
        else:
            payload = jwt.decode(credentials.credentials, JWT_SECRET, algorithms=["HS256"], options={"require": ["sub"]})
        return Claims.parse_obj(payload)
    except (jwt.PyJWTError, ValidationError):
        raise HTTPException(status_code=401, detail="Could not validate credentials", headers={"WWW-Authenticate": "Bearer"})


def require_permission(permission: str):
    def dependency(user: Claims = Depends(current_user)) -> Claims:
        if not user.is_super_admin and permission not in user.permissions:
            raise HTTPException(status_code=403, detail=f"Missing permission: {permission}")
        return user

    return dependency


def require_super_admin(user: Claims = Depends(current_user)) -> Claims:
    if not user.is_super_admin:
        raise HTTPException(status_code=403, detail="Super admin permission required")
    return user


def nobody() -> None:
    return None


# ---------------------------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------------------------
STORE_LOCK = threading.Lock()
DIMENSION_VALUES = seed.dimension_values()


def scaled(record: Dict[str, Any], fields=("created_at", "updated_at", "reviewed_at")) -> Dict[str, Any]:
    if TIME_SCALE == 1:
        return record
    return {key: (value * TIME_SCALE if key in fields and isinstance(value, int) else value) for key, value in record.items()}


def with_extras(record: Dict[str, Any], extras: Dict[str, Any]) -> Dict[str, Any]:
    return {**record, **extras} if on("legit:extra-fields") else record


# ---------------------------------------------------------------------------------------------------------------
# 1. List personas
# ---------------------------------------------------------------------------------------------------------------
IntentQuery = Intent if on("legit:intents-enum") else str
LimitQuery = Query(10, ge=1) if on("bug:limit-no-maximum") else Query(10, ge=1, le=100)


PERSONA_READER = Depends(require_permission("persona:read"))


def list_personas(
    team_id: Optional[UUID] = Query(None, description="Team ID (required)"),
    intents: Optional[List[IntentQuery]] = Query(None),  # type: ignore[valid-type]
    is_preset: Optional[bool] = Query(None),
    search: Optional[str] = Query(None),
    limit: int = LimitQuery,
    offset: int = Query(0, ge=0),
    user: Claims = PERSONA_READER,
) -> PersonaListResponse:
    return personas_page(team_id, intents, is_preset, search, limit, offset, user)


def list_personas_plain(
    team_id: Optional[UUID] = None,
    intents: Optional[List[IntentQuery]] = Query(None),  # type: ignore[valid-type]  # a list needs Query()
    is_preset: Optional[bool] = None,
    search: Optional[str] = None,
    limit: conint(ge=1, le=100) = 10,  # type: ignore[valid-type]
    offset: conint(ge=0) = 0,  # type: ignore[valid-type]
    user: Claims = PERSONA_READER,
) -> PersonaListResponse:
    """legit:plain-optional: the same parameters as list_personas, without Query()."""
    return personas_page(team_id, intents, is_preset, search, limit, offset, user)


def list_personas_documented(
    team: Optional[UUID] = Query(
        None, alias="team_id", title="Team", description="The team whose personas are listed", example=seed.TEAMS["primary"]
    ),
    wanted: Optional[List[IntentQuery]] = Query(  # type: ignore[valid-type]
        None,
        alias="intents",
        description="Personas with any of these intents",
        examples={"one": {"value": ["curious"]}, "two": {"value": ["curious", "adversarial"]}},
    ),
    preset: Optional[bool] = Query(None, alias="is_preset", description="Only presets, or only the team's own"),
    text: Optional[str] = Query(None, alias="search", description="In name, description or role", example="billing"),
    page_size: int = Query(10, ge=1, le=100, alias="limit", title="Page size", description="Personas per page"),
    skip: int = Query(0, ge=0, alias="offset", description="Personas before the page"),
    user: Claims = PERSONA_READER,
) -> PersonaListResponse:
    """legit:query-metadata: the wire names are aliases of the Python ones."""
    return personas_page(team, wanted, preset, text, page_size, skip, user)


def personas_page(
    team_id: Optional[UUID],
    intents: Optional[List[Any]],
    is_preset: Optional[bool],
    search: Optional[str],
    limit: int,
    offset: int,
    user: Claims,
) -> Any:
    if team_id is None and on("legit:team-id-required"):
        raise HTTPException(status_code=400, detail="team_id is required")
    team = str(team_id) if team_id is not None else user.team_id
    if team is None:
        raise HTTPException(status_code=400, detail="team_id is required")
    if not user.is_super_admin and team != user.team_id:
        if on("legit:other-team-404"):
            raise HTTPException(status_code=404, detail="Team not found")
        raise HTTPException(status_code=403, detail="Not authorized for this team")

    if on("bug:leak-other-team-presets"):
        in_team = [p for p in seed.PERSONAS if p["team_id"] == team or p["is_preset"]]
    else:
        in_team = [p for p in seed.PERSONAS if p["team_id"] == team]
    matching = in_team
    if intents and not on("bug:intents-ignored"):
        wanted = {intent.value if isinstance(intent, Enum) else intent for intent in intents}
        matching = [p for p in matching if p["intent"] in wanted]
    if is_preset is not None:
        matching = [p for p in matching if p["is_preset"] == is_preset]
    if search:
        term = search.lower()
        fields = ("name", "description") if on("bug:search-skips-role") else ("name", "description", "role")
        matching = [p for p in matching if any(term in (p[field] or "").lower() for field in fields)]

    start = 0 if on("bug:offset-ignored") else offset
    page = ordered_personas(matching)[start : start + limit]
    total = len(in_team) if on("bug:total-ignores-filters") else len(matching)
    return answer(PersonaListResponse, {"results": [with_extras(scaled(p), {"avatar_url": None}) for p in page], "total": total})


def ordered_personas(personas: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    if on("legit:personas-by-name"):
        return sorted(personas, key=lambda p: (p["name"], p["id"]))
    by_id = sorted(personas, key=lambda p: p["id"])
    return sorted(by_id, key=lambda p: p["created_at"], reverse=not on("legit:personas-oldest-first"))


PERSONAS_ENDPOINTS = {"legit:plain-optional": list_personas_plain, "legit:query-metadata": list_personas_documented}
app.get(
    "/v1/personas/",
    name="list_personas",
    tags=["Agent Environment", "personas"],
    **route_options(PersonaListResponse, declared(400, 401, 403)),
)(next((endpoint for name, endpoint in PERSONAS_ENDPOINTS.items() if on(name)), list_personas))


# ---------------------------------------------------------------------------------------------------------------
# 2. Bulk add values to a dimension
# ---------------------------------------------------------------------------------------------------------------
BULK_STATUS = 200 if on("legit:bulk-200") else 202 if on("legit:bulk-202") else 201
bulk_auth = current_user if on("bug:bulk-no-admin") else require_super_admin


@app.post(
    "/v1/demographics/{dimension_id}/values/bulk",
    status_code=BULK_STATUS,
    tags=["demographics"],
    **route_options(List[DemographicValue], declared(401, 403, 404, 409)),
)
def bulk_add_values(dimension_id: UUID, body: BulkAddValues, user: Claims = Depends(bulk_auth)) -> List[DemographicValue]:
    with STORE_LOCK:
        values = DIMENSION_VALUES.get(str(dimension_id))
        if values is None:
            raise HTTPException(status_code=404, detail="Dimension not found")
        if on("bug:bulk-not-atomic"):
            return add_item_by_item(dimension_id, values, body.values)
        items: List[DemographicValueCreate] = body.values
        seen = {v["value"] for v in values}
        fresh: List[DemographicValueCreate] = []
        duplicates: List[str] = []
        for item in items:
            if item.value in seen and not on("legit:duplicates-stored"):
                if item.value not in duplicates:
                    duplicates.append(item.value)
                continue
            if not on("bug:duplicates-within-request"):
                seen.add(item.value)
            fresh.append(item)
        if duplicates and on("legit:bulk-reject-duplicates"):
            raise HTTPException(status_code=409, detail=f"Duplicate values: {', '.join(duplicates)}")
        return answer(List[DemographicValue], [store_value(dimension_id, values, item) for item in fresh], BULK_STATUS)


def store_value(dimension_id: UUID, values: List[Dict[str, Any]], item: DemographicValueCreate) -> Dict[str, Any]:
    if item.sort_order is not None:
        sort_order = item.sort_order
    elif on("legit:sort-order-zero"):
        sort_order = 0
    else:
        sort_order = max((v["sort_order"] for v in values), default=0) + 1
    record = {
        "id": str(uuid4()),
        "dimension_id": str(dimension_id),
        "value": item.value,
        "created_at": int(time.time()) * TIME_SCALE,
        "display_name": item.display_name if item.display_name is not None else item.value,
        "value_metadata": item.metadata,
        "sort_order": sort_order,
    }
    values.append(record)
    return record


def add_item_by_item(dimension_id: UUID, values: List[Dict[str, Any]], raw_items: List[Dict[str, Any]]):
    """bug:bulk-not-atomic: each item is validated and stored in turn; a bad one stops the loop, the rest stay."""
    added = []
    for index, raw in enumerate(raw_items):
        try:
            item = DemographicValueCreate.parse_obj(raw)
        except ValidationError as error:
            detail = [{**e, "loc": ["body", "values", index, *e["loc"]]} for e in error.errors()]
            return JSONResponse(status_code=422, content={"detail": detail})
        if any(v["value"] == item.value for v in values):
            continue
        added.append(store_value(dimension_id, values, item))
    return added


# ---------------------------------------------------------------------------------------------------------------
# 3. List policy rules
# ---------------------------------------------------------------------------------------------------------------
rules_auth = nobody if on("bug:rules-no-auth") else require_permission("policy:read")


@app.get(
    "/v1/policies/{policy_id}/rules",
    tags=["Agent Environment", "policies"],
    **route_options(PolicyRuleListResponse, declared(401, 403, 404)),
)
def list_policy_rules(
    policy_id: UUID,
    limit: int = Query(RULES_DEFAULT_LIMIT, ge=1, le=1000, alias=RULES_LIMIT),
    offset: int = Query(0, ge=0, alias=RULES_OFFSET),
    user: Optional[Claims] = Depends(rules_auth),
) -> PolicyRuleListResponse:
    policy = seed.POLICY_RECORDS.get(str(policy_id))
    if policy is None and on("bug:unknown-policy-empty"):
        return {"results": [], "total": 0}
    scoped = user is not None and not user.is_super_admin and not on("legit:rules-any-team")
    if policy is None or (scoped and policy["team_id"] != user.team_id):
        raise HTTPException(status_code=404, detail="Policy not found")
    rules = sorted(policy["rules"], key=lambda r: r["rule_id"])
    rules = sorted(rules, key=lambda r: r["created_at"], reverse=on("legit:rules-newest-first"))
    page = rules[offset : offset + limit]
    total = len(page) if on("bug:rules-total-page") else len(rules)
    return answer(PolicyRuleListResponse, {"results": [with_extras(scaled(rule_out(r)), {"version": 1}) for r in page], "total": total})


def rule_out(rule: Dict[str, Any]) -> Dict[str, Any]:
    if not on("bug:model-used-null") or rule["provenance"]["model_used"]:
        return rule
    return {**rule, "provenance": {**rule["provenance"], "model_used": None}}


# ---------------------------------------------------------------------------------------------------------------
# Start-up line: the seeded ids, once, before uvicorn serves.
# ---------------------------------------------------------------------------------------------------------------
print(json.dumps({"ids": seed.seeded_ids(), "variants": sorted(ACTIVE), "known": list(VARIANTS)}), flush=True)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8000")))
