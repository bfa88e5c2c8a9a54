"""No input crashes the interpreter (docs/python.md): records nested 100,000 and 1,000,000 deep fed
to every entry point that reads a record, and objects made by __new__ without __init__ used through
every method of every class of the compiled module. Each case runs in a child process, so a crash
(a signal) fails the case instead of killing pytest, and a hang fails on its timeout."""
import subprocess
import sys
import textwrap

import pytest

# Every entry point that reads a record: the text, the dict, a serialized state, a pickled state.
RECORD_ENTRY_POINTS = {
    "from_record_text": "c.from_record(text)",
    "from_record_dict": "c.from_record(value)",
    "deserialize_state": "game.deserialize_state(text)",
    "setstate": "c.State.__new__(c.State).__setstate__((game.__getstate__(), text))",
    "pickle_loads": "pickle.loads(with_record(pickle.dumps(game.new_initial_state(1), protocol=2), text))",
}

# Deep text: a bare array or object, and the nesting inside a record's own field; the same as a
# Python value for from_record(dict).
SHAPES = {
    "array": ("'[' * n + ']' * n", "nest_list(n)"),
    "object": ("'{\"a\":' * n + '1' + '}' * n", "nest_dict(n)"),
    "in_record": ("'{\"game\":\"base\",\"players\":[\"a\",\"b\"],\"moves\":' + '[' * n + ']' * n + '}'",
                  "{'game': 'base', 'players': ['a', 'b'], 'moves': nest_list(n)}"),
}


@pytest.mark.parametrize("depth", [100_000, 1_000_000])
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("entry", sorted(RECORD_ENTRY_POINTS))
def test_deeply_nested_records_raise_value_error(entry, shape, depth):
    text_expr, value_expr = SHAPES[shape]
    code = textwrap.dedent(f"""
        import pickle, struct
        import carcassonne as c
        game = c.Game("base")
        n = {depth}
        def nest_list(n):
            x = []
            for _ in range(n):
                x = [x]
            return x
        def nest_dict(n):
            x = 1
            for _ in range(n):
                x = {{"a": x}}
            return x
        def with_record(data, text):
            # a state's pickle (protocol 2: no frames) with its record text replaced
            old = game.new_initial_state(1).__getstate__()[1].encode()
            new = text.encode()
            at = data.index(b"X" + struct.pack("<I", len(old)) + old)
            return data[:at] + b"X" + struct.pack("<I", len(new)) + new + data[at + 5 + len(old):]
        text = {text_expr}
        value = {value_expr} if "value" in {RECORD_ENTRY_POINTS[entry]!r} else None
        try:
            {RECORD_ENTRY_POINTS[entry]}
        except ValueError as e:
            print("raised:", type(e).__name__, str(e)[:200])
            raise SystemExit(0)
        except BaseException as e:
            print("wrong exception:", type(e).__name__, str(e)[:200])
            raise SystemExit(3)
        raise SystemExit("accepted")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (f"{entry} {shape} {depth}: exit {r.returncode} (negative: killed by a signal)\n"
                               f"{r.stdout}\n{r.stderr[-2000:]}")
    assert "raised: " in r.stdout


# ---- objects made by __new__ without __init__

UNINITIALISED = textwrap.dedent("""
    import inspect, sys
    import carcassonne as c
    from carcassonne import _core
    classes = [v for k, v in sorted(vars(_core).items()) if isinstance(v, type) and type(v).__name__ == "pybind11_type"]
    names = sorted(k.__name__ for k in classes)
    assert {"BatchedMCTS", "Game", "State", "VecEnv"} <= set(names), names
    print("classes:", names)
    # object's own machinery, which never reaches the C++ object; __init__ and __setstate__ are how
    # an object gets made (tested below), __new__ is what made it
    SKIP = {"__new__", "__init__", "__setstate__", "__class__", "__init_subclass__", "__subclasshook__",
            "__getattribute__", "__setattr__", "__delattr__", "__dir__", "__sizeof__", "__doc__", "__module__",
            "__dict__", "__weakref__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__reduce__",
            "__reduce_ex__", "__format__"}
    checked = 0
    for cls in classes:
        if cls.__name__ != sys.argv[1]:
            continue
        obj = cls.__new__(cls)
        for name in sorted(vars(cls)):  # the class's own: what object itself answers never reaches C++
            if name in SKIP:
                continue
            attr = inspect.getattr_static(cls, name)
            if not callable(attr) and not isinstance(attr, property) and not hasattr(attr, "__get__"):
                continue
            refused, accepted = [], []
            for nargs in range(4):
                try:
                    got = getattr(obj, name)
                    if not callable(got):
                        accepted.append(nargs)
                        break
                    got(*([0] * nargs))
                    accepted.append(nargs)
                except (TypeError, RuntimeError) as e:
                    if "__init__" in str(e):
                        refused.append(nargs)
                    if isinstance(attr, property) or not callable(attr):
                        break
            assert refused and not accepted, f"{cls.__name__}.{name}: refused {refused}, accepted {accepted}"
            checked += 1
        # pickle's way still works: __new__, then __setstate__ with a real state
        if cls.__name__ == "State":
            game = c.Game("base")
            st = game.new_initial_state(5)
            st.apply_action(st.sample_chance_outcome())
            fresh = c.State.__new__(c.State)
            fresh.__setstate__(st.__getstate__())
            assert fresh.serialize() == st.serialize() and fresh.history() == st.history()
        if cls.__name__ == "Game":
            g = c.Game.__new__(c.Game)
            g.__setstate__(c.Game("hunters").__getstate__())
            assert g.name == "hunters"
    print("checked", checked)
    assert checked >= 3
""")


@pytest.mark.parametrize("cls", ["BatchedMCTS", "Game", "State", "VecEnv"])
def test_objects_made_without_init_raise_on_every_method(cls):
    r = subprocess.run([sys.executable, "-c", UNINITIALISED, cls], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{cls}: exit {r.returncode} (negative: killed by a signal)\n{r.stdout}\n{r.stderr[-3000:]}"
    assert "checked" in r.stdout


def test_every_compiled_class_is_covered():
    import carcassonne._core as core
    classes = sorted(k for k, v in vars(core).items() if isinstance(v, type) and type(v).__name__ == "pybind11_type")
    # a new class of the compiled module joins the parametrisation above
    assert classes == ["BatchedMCTS", "Game", "State", "VecEnv"], classes
