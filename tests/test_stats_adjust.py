"""adjust_pvalues: Holm's and Bonferroni's adjusted p-values, against statsmodels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek


def test_adjust_pvalues_agrees_with_statsmodels_multipletests():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(5)
    for _ in range(150):  # multipletests is slow to call (about 0.1 s here)
        m = int(rng.integers(1, 30))
        pvalues = rng.random(m) ** rng.choice([1, 3, 8])
        if rng.random() < 0.2:
            pvalues[: m // 2] = pvalues[0]  # ties
        for correction in ("holm", "bonferroni"):
            np.testing.assert_allclose(ek.adjust_pvalues(pvalues, correction=correction),
                                       multipletests(pvalues, method=correction)[1], atol=1e-12)
        np.testing.assert_array_equal(ek.adjust_pvalues(pvalues, correction=None), pvalues)


def test_adjust_pvalues_by_hand():
    # sorted 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1 -> 0.04, 0.09, 0.08 -> 0.09 (running max), 0.5
    np.testing.assert_allclose(ek.adjust_pvalues([0.01, 0.04, 0.03, 0.5]), [0.04, 0.09, 0.09, 0.5])
    np.testing.assert_allclose(ek.adjust_pvalues([0.3, 0.6]), [0.6, 0.6])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_adjusted_pvalues_keep_the_order_and_lie_between_p_and_bonferroni(pvalues):
    p = np.array(pvalues)
    holm = ek.adjust_pvalues(p)
    assert np.all(holm >= p - 1e-15) and np.all(holm <= ek.adjust_pvalues(
        p, correction="bonferroni") + 1e-15)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(holm[order]) >= -1e-15)


@pytest.mark.parametrize("bad", [[0.1, 1.2], [-0.1], [np.nan], []])
def test_adjust_pvalues_rejects_values_outside_0_1(bad):
    with pytest.raises(ValueError, match="pvalues"):
        ek.adjust_pvalues(bad)
    with pytest.raises(ValueError, match="correction"):
        ek.adjust_pvalues([0.1], correction="fdr")
