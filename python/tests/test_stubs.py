"""The stubs (kete/_kete.pyi) name every class, function and public member
of the extension module, and nothing it lacks."""

import ast
import inspect
import pathlib

import kete
from kete import _kete

STUB = pathlib.Path(kete.__file__).with_name("_kete.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_every_name_of_the_module_is_in_the_stubs():
    tree = stub_tree()
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            stubbed.add(node.target.id)
        elif isinstance(node, ast.Assign):
            stubbed.update(t.id for t in node.targets)
    module = public(dir(_kete)) | {"__version__"}
    assert module - stubbed == set()
    assert stubbed - module - {"Side"} == set()
    assert set(kete.__all__) == module


def test_every_member_of_every_class_is_in_the_stubs():
    tree = stub_tree()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(_kete, node.name)
        members = set()
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                members.add(item.name)
            elif isinstance(item, ast.AnnAssign):
                members.add(item.target.id)
        if issubclass(cls, BaseException):
            assert public(members) <= {"termination"}
            continue
        own = public(n for n, _ in inspect.getmembers(cls) if n not in dir(object))
        assert own == public(members), node.name
        # Every member has its documentation.
        for name in own:
            assert getattr(cls, name).__doc__, f"{node.name}.{name}"
        assert cls.__doc__, node.name
