"""Prints app.py's /openapi.json as the FastAPI that runs it generates it (indented): openapi-3.0.json under Debian
12's FastAPI 0.92, openapi-3.1.json under FastAPI 0.115 in the chroot of scripts/fastapi-trixie.sh. The commands are
in README.md.
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from app import app  # noqa: E402

print(json.dumps(app.openapi(), indent=2))
