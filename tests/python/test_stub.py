"""python/pixflow/_pixflow.pyi against the extension it describes.

The stub is parsed (ast), never imported; the module is probed:
 - the same public names both ways (functions, classes, constants);
 - each function's parameters (names, order, positional-only / keyword, which have defaults) equal
   its C text signature (inspect.signature), and the text signature is what the C argument parser
   accepts: probed by calls the parser refuses before the function body runs (too many arguments,
   a missing required one, one given by name and position, or an unknown keyword);
 - every parameter and return is annotated, and nothing is typed Any;
 - each constant the stub declares is an int in the module.
"""
import ast
import inspect
import os
import re

import pytest

import pixflow._pixflow as P

STUB = os.path.join(os.path.dirname(P.__file__), "_pixflow.pyi")

# Members of the C types the stub describes besides the public ones (the protocols Python calls).
_DUNDERS = {"__init__", "__len__", "__dlpack__", "__dlpack_device__", "__cuda_array_interface__", "__enter__",
            "__exit__", "__eq__"}


def _stub():
    with open(STUB) as f:
        return ast.parse(f.read())


def _public(names):
    return {n for n in names if not n.startswith("_")}


def _stub_names(tree):
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
    return out


def _params(fn, drop_self=False):
    """(name, kind, has_default) of a stub def, in inspect.Parameter kinds."""
    a = fn.args
    pos = [(x.arg, inspect.Parameter.POSITIONAL_ONLY) for x in a.posonlyargs]
    pos += [(x.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for x in a.args]
    ndef = len(a.defaults)
    out = [(n, k, i >= len(pos) - ndef) for i, (n, k) in enumerate(pos)]
    if a.vararg:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, False))
    out += [(x.arg, inspect.Parameter.KEYWORD_ONLY, d is not None) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, False))
    if drop_self:
        assert out and out[0][0] in ("self", "cls"), f"{fn.name}: the first parameter must be self (cls)"
        out = out[1:]
    return out


def _real_params(obj):
    sig = inspect.signature(obj)
    return [(p.name, p.kind, p.default is not p.empty) for p in sig.parameters.values()]


def test_names_match_both_ways():
    stub = _public(_stub_names(_stub()))
    real = _public(dir(P))
    assert real - stub == set(), f"in _pixflow but not in _pixflow.pyi: {sorted(real - stub)}"
    assert stub - real == set(), f"in _pixflow.pyi but not in _pixflow: {sorted(stub - real)}"


def test_constants_are_the_modules_ints():
    for name, node in _stub_names(_stub()).items():
        if isinstance(node, ast.AnnAssign) and not name.startswith("_"):
            assert isinstance(node.annotation, ast.Name) and node.annotation.id == "int", name
            assert type(getattr(P, name)) is int, name


def test_no_any_and_everything_annotated():
    tree = _stub()
    anys = [n.lineno for n in ast.walk(tree)
            if (isinstance(n, ast.Name) and n.id == "Any") or (isinstance(n, ast.Attribute) and n.attr == "Any")]
    assert not anys, f"_pixflow.pyi uses Any on lines {anys}"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            a = node.args
            for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]:
                assert x.arg in ("self", "cls") or x.annotation is not None, f"{node.name}({x.arg}) has no type"
            assert node.returns is not None, f"{node.name} has no return type"


def _module_functions():
    return [(name, node) for name, node in _stub_names(_stub()).items()
            if isinstance(node, ast.FunctionDef) and not name.startswith("_")]


@pytest.mark.parametrize("name,node", _module_functions(), ids=lambda v: v if isinstance(v, str) else "")
def test_function_signature_matches_c(name, node):
    fn = getattr(P, name)
    real = _real_params(fn)  # fails when the C function declares no text signature
    assert _params(node) == real, f"{name}: stub {_params(node)} != C {real}"
    _probe_c_parser(name, fn, real)


def _classes():
    return [(name, node) for name, node in _stub_names(_stub()).items() if isinstance(node, ast.ClassDef)]


@pytest.mark.parametrize("name,node", _classes(), ids=lambda v: v if isinstance(v, str) else "")
def test_class_members_match(name, node):
    cls = getattr(P, name)
    members = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
    members.update({n.target.id: n for n in node.body if isinstance(n, ast.AnnAssign)})
    if issubclass(cls, BaseException):  # the errors: status is set on each instance
        assert set(members) <= {"status"}, name
        return
    want = {n for n in vars(cls) if not n.startswith("_") or n in _DUNDERS}
    assert set(members) == want, f"{name}: stub {sorted(members)} != C {sorted(want)}"
    for mname, m in members.items():
        attr = vars(cls)[mname]
        is_prop = any(isinstance(d, ast.Name) and d.id == "property" for d in m.decorator_list)
        assert is_prop == inspect.isdatadescriptor(attr), f"{name}.{mname}: property in one, method in the other"
        if is_prop:
            continue
        if mname == "__init__":
            real = _real_params(cls)  # the type's text signature (tp_doc)
            _probe_c_parser(name, cls, real)
        elif mname in ("__len__", "__eq__"):
            continue  # a slot: no text signature, its arguments are Python's
        else:
            real = _real_params(attr)
        assert _params(m, drop_self=True) == real, f"{name}.{mname}: stub {_params(m, True)} != C {real}"


# ----------------------------------------------------------------- probes

_ARITY = re.compile(r"takes (?:exactly|at most|at least) (\d+|one) (?:positional )?arguments?|takes no arguments")


def _type_error(call):
    try:
        call()
    except TypeError as e:
        return str(e)
    except Exception as e:  # the body ran: the parser took the arguments
        return f"accepted ({type(e).__name__}: {e})"
    return "accepted"


def _arity(msg):
    m = _ARITY.search(msg)
    assert m, f"not an arity error: {msg}"
    return 0 if m.group(1) is None else (1 if m.group(1) == "one" else int(m.group(1)))


def _probe_c_parser(name, fn, real):
    """Calls the C parser refuses with a message naming what it expects. Zeros convert with every
    format unit the extension uses (O, i, d, f, p, K), so a refusal is about names and counts."""
    kinds = [k for _, k, _ in real]
    positional = [(n, d) for n, k, d in real if k in (inspect.Parameter.POSITIONAL_ONLY,
                                                    inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    n = len(positional)
    nreq = sum(1 for _, d in positional if not d)
    # the C parser takes n positional arguments, and no more
    assert _arity(_type_error(lambda: fn(*[0] * (n + 1)))) == n, f"{name}: C takes another count than {n}"
    if inspect.Parameter.POSITIONAL_OR_KEYWORD not in kinds:
        if n and nreq and inspect.Parameter.VAR_KEYWORD not in kinds:
            assert "keyword" in _type_error(lambda: fn(**{positional[0][0]: 0})), f"{name} takes keywords"
        if nreq > 0:  # and needs nreq of them
            msg = _type_error(lambda: fn(*[0] * (nreq - 1)))
            assert _arity(msg) == nreq, f"{name}: C requires another count than {nreq}: {msg}"
        return
    names = [p for p, _ in positional]
    for i in range(nreq):  # required: the parser names the first one missing
        msg = _type_error(lambda: fn(*[0] * i))
        assert f"missing required argument '{names[i]}' (pos {i + 1})" in msg, f"{name}: {msg}"
    for i in range(nreq, n):
        if i + 2 <= n:  # an optional one by name and position: the parser names it with its position
            msg = _type_error(lambda: fn(*[0] * (i + 1), **{names[i]: 0}))
            assert f"given by name ('{names[i]}') and position ({i + 1})" in msg, f"{name}: {msg}"
        else:  # the last: passed by name, the parser must not call it unknown
            msg = _type_error(lambda: fn(*[0] * nreq, **{names[i]: 0}))
            assert "invalid keyword argument" not in msg, f"{name}: {msg}"
    if nreq == n:
        return  # every name was checked as a missing required one; no room for one more argument
    msg = _type_error(lambda: fn(*[0] * nreq, zz_not_a_parameter=0))
    assert "'zz_not_a_parameter' is an invalid keyword argument" in msg, f"{name}: {msg}"
