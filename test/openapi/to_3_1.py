"""Writes `openapi-3.1.json`: app.py's document as FastAPI >= 0.100 with pydantic 2 generates it.

That FastAPI cannot be installed here (Debian 12 has 0.92 with pydantic 1, and there is no PyPI), so this
script rewrites the 3.0 document FastAPI 0.92 generated (`openapi-3.0.json`, from generate.py) with the rules by
which the newer generation differs, as its own test snapshots and published documents show them:
- `"openapi": "3.1.0"`;
- `Optional[X] = None` is `{"anyOf": [X, {"type": "null"}], "default": null, "title": ...}`, its constraints
  inside the first branch (pydantic 1 wrote X alone);
- a model is `{"properties", "type", "required", "title"}` in that order; a field `{"type", constraints, "default",
  "title"}`; a parameter `{"name", "in", "required", "schema"}`; bounds keep the int they were given (pydantic 1 wrote floats);
- `ValidationError.loc.items` and `HTTPValidationError` as FastAPI >= 0.100 writes them.
Run: `/usr/bin/python3 test/openapi/to_3_1.py`.
"""

import json
import pathlib

HERE = pathlib.Path(__file__).parent
NULLABLE = {  # Optional fields of app.py, by model: pydantic 2 writes them as anyOf with null
    "AgentCreate": {"description"},
    "Agent": {"description"},
    "AgentUpdate": {"name", "description", "kind", "config", "tags"},
    "EvaluationReport": {"summary"},
    "Persona": {"tags"},
}


def field(schema, title=None, nullable=False, default=None, has_default=False):
    schema = dict(schema)
    title = schema.pop("title", title)
    if "default" in schema:
        default, has_default = schema.pop("default"), True
    typed = {}
    for key in ("$ref", "type", "format", "items", "enum", "maxItems", "minItems", "maxLength", "minLength", "maximum", "minimum", "additionalProperties"):
        if key in schema:
            value = schema[key]
            if key in ("maximum", "minimum") and float(value).is_integer():
                value = int(value)  # app.py gives every bound as an int, which pydantic 2 keeps
            if key == "items":
                value = field(value)
            if key == "additionalProperties" and isinstance(value, dict):
                value = field(value)
            typed[key] = value
    if nullable:
        out = {"anyOf": [typed, {"type": "null"}]}
        out["default"] = None
    else:
        out = typed
        if has_default:
            out["default"] = default
    if title is not None:
        out["title"] = title
    return out


def model(name, schema):
    if "enum" in schema:
        return {"type": schema["type"], "enum": schema["enum"], "title": name}
    nullable = NULLABLE.get(name, set())
    props = {key: field(value, nullable=key in nullable) for key, value in schema["properties"].items()}
    out = {"properties": props, "type": "object"}
    if schema.get("required"):
        out["required"] = schema["required"]
    out["title"] = name
    return out


def operation(op):
    out = {}
    for key, value in op.items():
        if key == "parameters":
            value = [
                {"name": p["name"], "in": p["in"], "required": p["required"], "schema": field(p["schema"])}
                for p in value
            ]
        out[key] = value
    return out


doc = json.loads((HERE / "openapi-3.0.json").read_text())
doc["openapi"] = "3.1.0"
doc["paths"] = {path: {method: operation(op) for method, op in item.items()} for path, item in doc["paths"].items()}
schemas = {name: model(name, schema) for name, schema in doc["components"]["schemas"].items()}
schemas["ValidationError"] = {
    "properties": {
        "loc": {"items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "type": "array", "title": "Location"},
        "msg": {"type": "string", "title": "Message"},
        "type": {"type": "string", "title": "Error Type"},
    },
    "type": "object",
    "required": ["loc", "msg", "type"],
    "title": "ValidationError",
}
doc["components"]["schemas"] = schemas
(HERE / "openapi-3.1.json").write_text(json.dumps(doc, indent=2) + "\n")
print("wrote openapi-3.1.json")
