"""`spec.terms`, the SymPy-free vocabulary: it imports without SymPy, and its values are the public strings that
the catalog, `list --json` and the vectors carry."""

import subprocess
import sys

from shuffle_spec.spec.terms import Direction, EffectiveDelta, HypothesisError, Kind, Source

from support.paths import child_environment


def test_terms_import_without_sympy():
    code = "import sys; import shuffle_spec.spec.terms; print('sympy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_environment(), check=True)
    assert result.stdout.strip() == "False"


def test_the_public_strings_of_kind_and_direction():
    assert [d.value for d in Direction] == ["upper_bound", "lower_bound", "exact", "definition"]
    assert [k.value for k in Kind] == ["Def", "Lem", "Thm", "Cor", "Prop", "Alg", "Procedure"]


def test_source_reads_as_paper_locator_version():
    assert str(Source("BBGN19", "Lemma 5.3", "v2", "high")) == "BBGN19 Lemma 5.3, v2"
    assert str(Source("FMT21", "Appendix E")) == "FMT21 Appendix E"


def test_effective_delta_json_has_both_fields():
    assert EffectiveDelta("FMT21.Prop2.2.delta_prime", "delta'").to_json() == {"provider": "FMT21.Prop2.2.delta_prime", "formula": "delta'"}


def test_hypothesis_error_is_one_line_naming_statement_hypothesis_and_values():
    error = HypothesisError("FMT21.Thm2.1", "delta <= 1", {"eps0": 1, "delta": 2})
    assert isinstance(error, ValueError)
    assert str(error) == "FMT21.Thm2.1: hypothesis delta <= 1 fails for eps0=1, delta=2"
    assert error.values == {"eps0": 1, "delta": 2} and error.hypothesis == "delta <= 1"
