"""Port of cool-japan/optirs `PrivacyAmplificationAnalyzer::compute_shuffling_amplification` (Rust).

Source: repository cool-japan/optirs, commit f1d9fe4e58a52923dc7ff1599aea51f7c1c05865 (the file's last
change; snapshot HEAD 3b275dfcd9997208f46646cd9dd45ae4b6bac1ba),
file optirs-core/src/privacy/differential_privacy/amplification_analyzer.rs, lines 142-151:

    if !shuffling_enabled || num_clients < 2 { return 1.0; }
    1.0 + 0.1 * (num_clients as f64).sqrt()      // "Simplified shuffling amplification"

The crate calls this an amplification *factor* and reports `total_privacy_saved = factor - 1`
(`get_amplification_stats`); it multiplies it with the subsampling factor
(`compute_combined_amplification`). The only reading under which a factor "saves privacy" is
eps_central = eps0 / factor, which is what `central_epsilon` returns: an interpretation, stated as such
on the verdict page. The factor ignores eps0 and delta altogether, so no shuffle theorem has this form
(FMT21 Thm 3.1 gives eps ~ sqrt(e^eps0 log(1/delta)/n), shrinking like 1/sqrt(n) but growing with eps0
and log(1/delta)). Its own test (lines 318-330) only checks factor(100) > 1 and factor(1) = 1.
"""

from __future__ import annotations

import math

__all__ = ["central_epsilon", "shuffling_amplification_factor"]


def shuffling_amplification_factor(n: int) -> float:
    """compute_shuffling_amplification(num_clients = n) with shuffling enabled (lines 143-151)."""
    if n < 2:
        return 1.0
    return 1.0 + 0.1 * math.sqrt(float(n))


def central_epsilon(eps0: float, n: float, delta: float) -> float:
    """eps0 / factor(n): the central epsilon the factor implies (module doc). delta is ignored, as in the
    crate; n is a Rust usize (truncated; a negative n cannot reach the Rust code and is refused)."""
    if n < 0 or math.isnan(n):
        raise ValueError("num_clients is a usize")
    return eps0 / shuffling_amplification_factor(int(n))
