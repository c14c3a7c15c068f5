"""Prints app.py's /openapi.json as the FastAPI that runs it generates it (indented), for the files beside it:

    /usr/bin/python3 test/openapi/generate.py > test/openapi/openapi-3.0.json      # Debian 12's FastAPI 0.92
    R=~/.cache/agent-console-mock/trixie                                          # FastAPI 0.115: the chroot of
    cp test/openapi/app.py test/openapi/generate.py $R/tmp/ &&                    # scripts/fastapi-trixie.sh
      chroot $R python3 /tmp/generate.py > test/openapi/openapi-3.1.json
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from app import app  # noqa: E402

print(json.dumps(app.openapi(), indent=2))
