"""A `carcassonne engine` process spoken to over its stdin/stdout (docs/engine-protocol.md), for the
test scripts that drive games through it: `ask(cmd, **fields)` sends one request and returns its
reply; `close()` ends the process (killed if it does not end within 60 s)."""
import json
import subprocess


class Engine:
    def __init__(self, bin_path, *args):
        self.p = subprocess.Popen([bin_path, "engine", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.n = 0

    def ask(self, cmd, **kw):
        self.n += 1
        req = dict(kw, cmd=cmd, id=self.n)
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine closed its output at {req}")
        return json.loads(line)

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
