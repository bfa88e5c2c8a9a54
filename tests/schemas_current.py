"""The committed schemas in docs/ are what tools/gen_protocol_schemas.py and
tools/gen_server_schema.py write today (the server's schema embeds the view's: a change to one
must reach the other). Runs the generators in a scratch copy of tools/ and docs/ and compares."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FILES = ["view.schema.json", "engine-protocol.schema.json", "server-protocol.schema.json"]

with tempfile.TemporaryDirectory() as tmp:
    shutil.copytree(os.path.join(ROOT, "tools"), os.path.join(tmp, "tools"), ignore=shutil.ignore_patterns("__pycache__"))
    os.mkdir(os.path.join(tmp, "docs"))
    for gen in ["gen_protocol_schemas.py", "gen_server_schema.py"]:
        subprocess.run([sys.executable, os.path.join("tools", gen)], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
    stale = []
    for f in FILES:
        with open(os.path.join(ROOT, "docs", f), "rb") as a, open(os.path.join(tmp, "docs", f), "rb") as b:
            if a.read() != b.read():
                stale.append(f)
    if stale:
        print(f"FAIL: docs/{', docs/'.join(stale)} differ from what the generators write; run "
              "/usr/bin/python3 tools/gen_protocol_schemas.py && /usr/bin/python3 tools/gen_server_schema.py")
        sys.exit(1)
    print(f"ok: {len(FILES)} schemas are current")
