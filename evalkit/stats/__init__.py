r"""Uncertainty and significance: confidence intervals, tests of a difference, effect sizes.

How sure can we be of a measured score, and of a difference between two systems? This
module answers with the tools of ``scipy.stats`` and adds only what scipy lacks:

- :func:`proportion_ci`: intervals for a proportion such as accuracy, vectorised over many
  test sets (:class:`evalkit.widgets.TestSetModel` simulates with it).
- :func:`simulate_test_accuracies` and :func:`interval_coverage`: how a measured accuracy
  spreads over many test sets of one size, and how often an interval method contains the
  truth (:class:`evalkit.widgets.TestSetModel` is built on them).
- :func:`bootstrap_ci`: a bootstrap interval for any metric, resampling the rows of all its
  arrays together (``scipy.stats.bootstrap(..., paired=True)``); for evalkit's
  confusion-matrix metrics, all resamples are drawn at once as multinomial confusion
  matrices.
- :func:`paired_randomization_test`: the sign-flip test of IR evaluation (Smucker et al.
  2007), exact for small query sets, in bounded memory for large ones.
- :func:`cohens_d` and :func:`effect_size_label`: how large a difference is, not only
  whether it is there.
- :func:`t_test_power`: how likely a t test is to find a true effect of a given size
  (:class:`evalkit.widgets.PowerModel` and :class:`evalkit.widgets.SeedsModel` use it).
- :func:`resampled_class_scores`: per-class precision, recall, F1 and cP, cR, cF1 on many
  weighted resamples (bootstrap or kept subsets) and a stack of models, one matrix product.
- :func:`equal_variance_test`: the F-test, Bartlett's and Levene's tests of equal variance
  (:class:`evalkit.widgets.ResamplesModel` runs them).
- :func:`compare_systems` and :func:`compare_runs`: one table per comparison, with the test,
  the effect size and (for many systems against a baseline) Holm's or Bonferroni's
  correction, like PyTerrier's ``Experiment``.
- :func:`friedman_test` and :func:`nemenyi_test`: many systems on many data sets, by
  their ranks (Demšar 2006).
- :func:`mcnemar_test` and :func:`compare_classifiers`: two classifiers on one test set,
  by the items only one gets right, or by any metric (macro-F1, cF1, AUC, ...) with an
  approximate randomization test or a paired bootstrap, all resamples at once.
- :func:`five_by_two_cv_test` and :func:`corrected_resampled_t_test`: two learning
  algorithms over resampled training sets, where retraining adds its own variance
  (Dietterich 1998; Nadeau & Bengio 2003).
- :func:`available_sample`, :func:`simulate_estimates` and :func:`estimation_summary`: the
  simulation of holdout, k-fold and leave-one-out estimates (notebook 21).
- :func:`bootstrap_632`: the out-of-bag, .632 and .632+ bootstrap estimates of accuracy
  (notebook 21 and its study, ``data/estimation/make_estimates.py``).

One module per topic (``proportion``, ``bootstrap``, ``randomization``, ``effect_size``,
``variance``, ``resampled``, ``comparison``, ``estimation``, ``mcnemar``, ``classifiers``,
``crossval``, ``ranks``); every name is importable from
``evalkit.stats`` and the public functions from ``evalkit``.

**Arguments** are checked once, at the public function, with evalkit's shared checks, so
one kind of mistake gets one exception class and one message:

- data by position, every option by keyword (``cohens_d(a, b, paired=True)``); a
  positional option is a ``TypeError`` that shows the keyword call. (:func:`bootstrap_ci`
  takes its arrays as ``*arrays``, so its options are keyword-only by its signature.)
- a flag (``paired``, ``leave_one_out``) is True or False, ``vectorized`` also None;
  anything else (``1``, ``"yes"``) is a ``TypeError``.
- ``seed`` is None, a whole number >= 0 or a ``numpy.random.Generator``; ``True`` is a
  ``TypeError``, ``-1`` a ``ValueError``. :func:`available_sample` and
  :func:`simulate_estimates` take a whole number only: it is part of the published recipe
  of their samples.
- counts (``successes`` and ``n`` of :func:`proportion_ci`) are non-negative whole numbers:
  ``80.0`` passes, ``2.5`` or ``-1`` is a ``ValueError``.
- one name per concept: ``confidence`` (a level in (0, 1)), ``n_resamples``, ``seed``,
  ``alpha`` (a significance level).

**Undefined values.** No function here takes ``zero_division``; the policy is

- a statistic that has a limit returns it, as its Returns section says, without a warning:
  a zero spread gives Cohen's d of 0 (equal means) or ±inf; identical paired scores give
  a test statistic of 0 and p = 1, constant non-zero differences t = ±inf and p = 0
  (:func:`compare_systems`, :func:`compare_runs`); the SD of a single estimate is 0
  (:func:`estimation_summary`);
- nothing to compute is a ``ValueError`` naming the argument: fewer than two values, ``b``
  with zero variance (:func:`equal_variance_test`), a metric that returns NaN on the data
  or a resample (:func:`bootstrap_ci`, e.g. under ``zero_division=np.nan``);
- the warnings of the metric that :func:`bootstrap_ci` resamples (such as
  :class:`~evalkit.exceptions.UndefinedMetricWarning` when a resample lacks a class) are
  passed on once each, prefixed ``"bootstrap resamples: "``;
- a method that breaks down on the data warns with ``RuntimeWarning`` and returns its
  documented fallback: BCa when the estimate lies outside every resampled value (the
  interval collapses to their minimum or maximum, where scipy returns NaN).
"""

from __future__ import annotations

from .bootstrap import BOOTSTRAP_METHODS, BootstrapInterval, ConfidenceInterval, bootstrap_ci
from .classifiers import CLASSIFIER_METRICS, CLASSIFIER_TESTS, compare_classifiers
from .comparison import (
    CORRECTIONS,
    SIGNIFICANCE_TESTS,
    adjust_pvalues,
    compare_runs,
    compare_systems,
)
from .crossval import (
    FIVE_BY_TWO_TESTS,
    CorrectedTTestResult,
    FiveByTwoResult,
    corrected_resampled_t_test,
    five_by_two_cv_differences,
    five_by_two_cv_test,
)
from .effect_size import (
    EFFECT_SIZE_THRESHOLDS,
    PairedTTestSimulation,
    cohens_d,
    effect_size_label,
    simulate_paired_t_tests,
    t_test_power,
)
from .estimation import (
    ESTIMATION_COLUMNS,
    ESTIMATION_METHODS,
    K_VALUES,  # noqa: F401 (public, not in __all__, as before the split)
    TEST_FRACTIONS,  # noqa: F401
    Bootstrap632Result,
    available_sample,
    bootstrap_632,
    estimation_summary,
    simulate_estimates,
)
from .mcnemar import MCNEMAR_METHODS, McNemarResult, mcnemar_test
from .proportion import (
    CI_METHODS,
    ProportionInterval,
    interval_coverage,
    proportion_ci,
    proportion_se,
    simulate_test_accuracies,
)
from .randomization import RandomizationResult, paired_randomization_test
from .ranks import FriedmanResult, NemenyiResult, friedman_test, nemenyi_test
from .resampled import RESAMPLED_METRICS, ResampledClassScores, resampled_class_scores
from .variance import VARIANCE_TESTS, VarianceTestResult, equal_variance_test

__all__ = [
    "proportion_ci",
    "proportion_se",
    "simulate_test_accuracies",
    "interval_coverage",
    "bootstrap_ci",
    "paired_randomization_test",
    "cohens_d",
    "effect_size_label",
    "t_test_power",
    "simulate_paired_t_tests",
    "equal_variance_test",
    "compare_systems",
    "compare_runs",
    "adjust_pvalues",
    "ProportionInterval",
    "ConfidenceInterval",
    "BootstrapInterval",
    "RandomizationResult",
    "PairedTTestSimulation",
    "VarianceTestResult",
    "VARIANCE_TESTS",
    "CI_METHODS",
    "BOOTSTRAP_METHODS",
    "SIGNIFICANCE_TESTS",
    "CORRECTIONS",
    "EFFECT_SIZE_THRESHOLDS",
    "available_sample",
    "simulate_estimates",
    "estimation_summary",
    "bootstrap_632",
    "Bootstrap632Result",
    "ESTIMATION_COLUMNS",
    "ESTIMATION_METHODS",
    "mcnemar_test",
    "McNemarResult",
    "MCNEMAR_METHODS",
    "compare_classifiers",
    "CLASSIFIER_TESTS",
    "CLASSIFIER_METRICS",
    "five_by_two_cv_test",
    "five_by_two_cv_differences",
    "FiveByTwoResult",
    "FIVE_BY_TWO_TESTS",
    "corrected_resampled_t_test",
    "CorrectedTTestResult",
    "friedman_test",
    "nemenyi_test",
    "FriedmanResult",
    "NemenyiResult",
    "resampled_class_scores",
    "ResampledClassScores",
    "RESAMPLED_METRICS",
]
