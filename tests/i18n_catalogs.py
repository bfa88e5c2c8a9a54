#!/usr/bin/env python3
"""Every message catalog (docs/i18n.md) against the code that uses it.

- Each catalog parses, and every message has en, ru and ro texts (the coverage is printed per
  catalog and language; any gap fails).
- Every message id the code names exists: say(..., "id" ...) in src/ and tests/games/ in the
  game's own catalog or the engine's (src/rules/messages.json), a game's own helper (sf_say("id"))
  in its folder likewise, cli_say("id") in src/cli/ in the
  terminal's or the engine's, t("id") in web/src/ in the browser's.
- Plural forms: {name|a|b} with 2 forms in English, 3 in Russian and Romanian.
- The glossary (docs/glossary.json): no Russian or Romanian catalog text and no Romanian rules page
  uses a variant the glossary forbids (a term's other word, a wrong spelling).
Usage: i18n_catalogs.py REPO"""
import json, pathlib, re, sys

repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
FORMS = {"en": 2, "ru": 3, "ro": 3}
problems = []


def load(path):
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001
        problems.append(f"{path}: not JSON: {e}")
        return {}
    for mid, m in d.items():
        for lang, text in m.items():
            if lang in ("note", "params"):
                continue
            if lang not in FORMS:
                problems.append(f"{path}: {mid}.{lang}: unknown language")
                continue
            for name, forms in re.findall(r"\{([a-z0-9_]+)((?:\|[^|}]*)*)\}", text):
                n = forms.count("|")
                if n and n != FORMS[lang]:
                    problems.append(f"{path}: {mid}.{lang}: {{{name}|...}} has {n} forms, {lang} needs {FORMS[lang]}")
            if lang != "en" and "en" in m:
                en_names = set(re.findall(r"\{([a-z0-9_]+)[|}]", m["en"])) | set(m.get("params", []))
                for name in set(re.findall(r"\{([a-z0-9_]+)[|}]", text)) - en_names:
                    problems.append(f"{path}: {mid}.{lang}: uses {{{name}}}, which the English text does not (nor its \"params\")")
    return d


def games(listing):
    p = repo / listing
    return [l.strip() for l in p.read_text().splitlines() if l.strip() and not l.startswith("#")] if p.exists() else []


catalogs = {"engine": repo / "src/rules/messages.json", "terminal": repo / "src/cli/messages.json", "browser": repo / "web/src/messages.json"}
game_dirs = {}
for g in games("src/games/GAMES"):
    game_dirs[g] = repo / "src/games" / g
for g in games("tests/games/GAMES"):
    game_dirs[g] = repo / "tests/games" / g
for g, d in game_dirs.items():
    if (d / "messages.json").exists():
        catalogs[g] = d / "messages.json"
loaded = {k: load(v) for k, v in catalogs.items()}

print(f"{'catalog':<10} {'messages':>8}  {'ru':>5}  {'ro':>5}")
for k, d in loaded.items():
    row = [k, len(d)]
    for lang in ("ru", "ro"):
        missing = sorted(mid for mid, m in d.items() if not m.get(lang))
        row.append(f"{len(d) - len(missing)}/{len(d)}")
        for mid in missing:
            problems.append(f"{catalogs[k]}: {mid} has no {lang} text")
    print(f"{row[0]:<10} {row[1]:>8}  {row[2]:>5}  {row[3]:>5}")

# the id: the first argument, or the second after a game or state; ids built at run time
# ("track." + name) are checked where they are looked up (has_message)
SAY = re.compile(r'\bsay\(\s*(?:[A-Za-z_][\w.\->*]*\s*,\s*)?"([a-z0-9_.\-]*[a-z0-9_\-])"(?!\s*\+)')
# a game's own say() for its words (sf_say, az_say, hg_say: its catalog, then the engine's)
GAME_SAY = re.compile(r'\b[a-z]{2}_say\(\s*"([a-z0-9_.\-]*[a-z0-9_\-])"(?!\s*\+)')
CLI_SAY = re.compile(r'\bcli_say\(\s*"([a-z0-9_.\-]+)"')
T = re.compile(r'\bt\(\s*"([a-z0-9_.\-]*[a-z0-9_\-])"(?!\s*\+)')
engine = set(loaded["engine"])
used = 0
for path in sorted(list((repo / "src").rglob("*.cpp")) + list((repo / "src").rglob("*.hpp")) + list((repo / "tests/games").rglob("*.cpp"))):
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(repo)
    own = set()
    if len(rel.parts) > 2 and rel.parts[-3] == "games" and rel.parts[-2] in loaded:
        own = set(loaded[rel.parts[-2]])
    allowed = engine | own | (set(loaded["terminal"]) if rel.parts[:2] == ("src", "cli") else set())
    if rel.parts[:2] in {("src", "view"), ("src", "rules"), ("src", "server"), ("src", "cli")}:  # generic code may name a game's own message, checked with has_message
        allowed |= set().union(*(set(v) for k, v in loaded.items() if k not in ("terminal", "browser")))
    for pat in (SAY, CLI_SAY) + ((GAME_SAY,) if own else ()):
        for mid in pat.findall(text):
            used += 1
            if mid not in allowed:
                problems.append(f"{rel}: names the message \"{mid}\", which no catalog it may use has")
for path in sorted((repo / "web/src").glob("*.ts")):
    for mid in T.findall(path.read_text(encoding="utf-8")):
        used += 1
        if mid not in loaded["browser"]:
            problems.append(f"{path.relative_to(repo)}: names the message \"{mid}\", which web/src/messages.json does not have")
print(f"{used} uses of message ids in code")

# The glossary (docs/glossary.json): no Russian or Romanian text of a catalog, nor a Romanian rules
# page (src/games/*/rules.json), uses a variant the glossary forbids for a term.
glossary = json.loads((repo / "docs/glossary.json").read_text(encoding="utf-8"))["terms"]


def glossary_check(where, mid, lang, text):
    for term, t in glossary.items():
        rule = t.get(lang)
        if not isinstance(rule, dict) or not rule.get("forbidden"):
            continue
        if any(mid == a or (a.endswith("*") and mid.startswith(a[:-1])) for a in rule.get("allow_ids", [])):
            continue
        rest = text
        for a in rule.get("allow", []):
            rest = re.sub(a, " ", rest, flags=re.I)
        for f in rule["forbidden"]:
            m = re.search(f, rest, flags=re.I)
            if m:
                problems.append(f"{where}: {mid}.{lang}: \"{m.group(0)}\" is not the glossary's word for {term} (\"{rule['word']}\", docs/glossary.json)")


for k, d in loaded.items():
    for mid, m in d.items():
        for lang in ("ru", "ro"):
            if m.get(lang):
                glossary_check(catalogs[k], mid, lang, m[lang])
for g, gdir in game_dirs.items():
    page = gdir / "rules.json"
    if not page.exists():
        continue
    for sec in json.loads(page.read_text(encoding="utf-8")).get("sections", []):
        for part in ("title", "text"):
            v = sec.get(part, {}).get("ro")
            for i, para in enumerate(v if isinstance(v, list) else [v] if v else []):
                glossary_check(page.relative_to(repo), f"{sec.get('id')}.{part}[{i}]", "ro", para)
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
