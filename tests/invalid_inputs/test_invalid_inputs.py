"""One table of invalid inputs for every public function of `reference/`.

The table is the union of `tests/invalid_inputs/*.py`. Each case must raise ValueError naming the
parameter. A second test makes sure no public function is missing from the table (or the explicit
exemptions, for functions whose inputs are already-validated objects).
"""

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import invalid_inputs
from shuffle_spec import reference

TABLES = [importlib.import_module(f"invalid_inputs.{m.name}") for m in pkgutil.iter_modules(invalid_inputs.__path__) if not m.name.startswith("test_")]
CASES = [case for table in TABLES for case in table.CASES]
EXEMPT = set().union(*(getattr(t, "EXEMPT", set()) for t in TABLES))


@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_invalid_input_raises_value_error_naming_the_parameter(case):
    with pytest.raises(ValueError) as failure:
        result = case.function(*case.args, **case.kwargs)
        if inspect.isgenerator(result):
            list(result)
    assert case.fragment in str(failure.value), f"message {str(failure.value)!r} does not name {case.fragment!r}"


def _public_functions():
    root = Path(reference.__file__).parent
    for info in pkgutil.walk_packages([str(root)], prefix="shuffle_spec.reference."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            # inspect.unwrap: a function behind functools.lru_cache (or any functools.wraps wrapper) is still a
            # public function and needs its row.
            obj = inspect.unwrap(getattr(module, name))
            if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                yield f"{module.__name__}.{name}"


def test_every_public_function_has_an_invalid_input_case():
    covered = {f"{c.function.__module__}.{c.function.__qualname__.split('.')[0] if inspect.isclass(c.function) else c.function.__name__}" for c in CASES}
    missing = sorted(set(_public_functions()) - covered - EXEMPT)
    assert not missing, f"public functions with no invalid-input case: {missing}"
