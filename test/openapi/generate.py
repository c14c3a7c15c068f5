"""Writes app.py's /openapi.json as FastAPI 0.92 generates it: `/usr/bin/python3 test/openapi/generate.py`."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from app import app  # noqa: E402

target = pathlib.Path(__file__).parent / "openapi-3.0.json"
target.write_text(json.dumps(app.openapi(), indent=2) + "\n")
print(f"wrote {target}")
