"""exact.laplace_pair_x0's lower groups read Z's law through `_Groups.cumulative` (F(z) = Pr[Z <= z], G(z) =
E[Z; Z <= z], 30 digits), thousands of times per walk; its constants are computed once per law. Checked: the whole
law has mass 1 and mean E[Z] (1 - e^eps forward, Z = 1 - e^eps R with E[R] = 1; 1 - e^eps backward, Z' = R - e^eps),
and every value equals the formula evaluated in place (the code before the constants were kept)."""

import mpmath

from shuffle_spec.reference.lower_bounds.laplace import _Groups


def _in_place(law, z):
    c, rc = law.big_c, mpmath.sqrt(law.big_c)
    mass, mom = mpmath.mpf(0), mpmath.mpf(0)
    for value, m in law.atoms:
        if value <= z:
            mass, mom = mass + m, mom + m * value
    zz = min(max(z, law.cont_lo), law.cont_hi)
    x = min(max((zz - law.alpha) / law.beta, 1 / c), c)
    if law.beta > 0:
        mx, ex = 1 - 1 / (rc * mpmath.sqrt(x)), (mpmath.sqrt(x) - 1 / rc) / rc
    else:
        mx, ex = 1 / (rc * mpmath.sqrt(x)) - 1 / c, (rc - mpmath.sqrt(x)) / rc
    if z < law.cont_lo:
        mx, ex = mpmath.mpf(0), mpmath.mpf(0)
    return mass + mx / 2, mom + (law.alpha * mx + law.beta * ex) / 2


def test_cumulative_is_the_law_and_the_formula_in_place():
    with mpmath.workdps(30):
        for eps0, eps, direction in ((1.0, 0.3, "forward"), (8.0, 1.5, "forward"), (2.0, 0.7, "backward")):
            law = _Groups(eps0, eps, direction)
            z_lo, z_hi = law.atoms[0][0], law.atoms[-1][0]
            mass, mean = law.cumulative(z_hi)
            assert abs(mass - 1) < mpmath.mpf(10) ** -25
            assert abs(mean - (1 - mpmath.exp(eps))) < mpmath.mpf(10) ** -24
            points = [z_lo - 1, z_lo, law.cont_lo, (law.cont_lo + law.cont_hi) / 2, law.cont_hi, z_hi, z_hi + 1]
            points += [law.cont_lo + (law.cont_hi - law.cont_lo) * mpmath.mpf(k) / 7 for k in range(1, 7)]
            for z in points:
                assert law.cumulative(z) == _in_place(law, z)
            assert law.cumulative(z_lo - 1) == (0, 0)
