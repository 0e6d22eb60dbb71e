"""Find the project's ``data/`` folder, so notebooks never hard-code a path.

The folder is looked up in this order:

1. the ``EVALKIT_DATA`` environment variable, if set;
2. ``data/`` beside the ``evalkit`` package (a clone of the repository, installed with
   ``pip install -e .`` as ``make lab`` does);
3. the copy shipped inside the installed package, ``evalkit/_data/`` (``pip install evalkit``
   or a wheel: no repository needed; see setup.py);
4. ``data/`` in the current directory or one of its parents (a notebook started from
   ``notebooks/``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._validation import check_option, check_scalar, keyword_only
from .trec import read_qrels, read_run

__all__ = ["data_dir", "data_path", "list_data", "load_collection", "Collection",
           "long_tailed_support", "long_tailed_labels", "ERROR_TARGETS"]

_MARKER = "README.md"


def _candidates() -> list[Path]:
    found = []
    if os.environ.get("EVALKIT_DATA"):
        found.append(Path(os.environ["EVALKIT_DATA"]).expanduser())
    package = Path(__file__).resolve().parent
    found.append(package.parent / "data")
    found.append(package / "_data")
    here = Path.cwd().resolve()
    found.extend(folder / "data" for folder in (here, *here.parents))
    return found


def data_dir() -> Path:
    """The folder that holds evalkit's data sets.

    Raises
    ------
    FileNotFoundError
        If ``EVALKIT_DATA`` names a folder that does not exist, or no ``data/`` folder with a
        ``README.md`` is found.

    Examples
    --------
    >>> (data_dir() / "README.md").is_file()
    True
    """
    env = os.environ.get("EVALKIT_DATA")
    if env:
        folder = Path(env).expanduser()
        if not folder.is_dir():
            raise FileNotFoundError(f"EVALKIT_DATA points to {folder}, which is not a folder")
        return folder
    for folder in _candidates():
        if (folder / _MARKER).is_file():
            return folder
    raise FileNotFoundError(
        "could not find evalkit's data/ folder (looked beside the evalkit package, in the copy "
        "shipped inside it and in the current folder and its parents); set EVALKIT_DATA to "
        "its path"
    )


def data_path(*parts: str) -> Path:
    """The path of a file in ``data/``; raises ``FileNotFoundError`` naming it if missing.

    Examples
    --------
    >>> data_path("README.md").name
    'README.md'
    >>> data_path("no-such-file.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no-such-file.csv is not in evalkit's data folder; it holds: ...
    """
    if not parts:
        raise ValueError("data_path needs at least one path component, e.g. data_path('qrels.txt')")
    folder = data_dir()
    path = folder.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(
            f"{'/'.join(parts)} is not in evalkit's data folder; it holds: {', '.join(list_data())}"
        )
    return path


def list_data() -> list[str]:
    """Names of the files and folders in ``data/``, sorted."""
    return sorted(p.name for p in data_dir().iterdir() if not p.name.startswith("."))


@dataclass
class Collection:
    """A test collection: documents, topics, relevance judgements and system runs.

    Attributes
    ----------
    name : str
        The folder in ``data/``.
    documents : pandas.DataFrame
        One row per document: ``doc_id``, ``module``, ``name``, ``kind``, ``text``.
    topics : pandas.DataFrame
        One row per topic: ``topic_id``, ``query``, ``description``, ``narrative`` (the
        judging guideline for that topic).
    qrels : pandas.DataFrame
        The graded judgements (``query_id``, ``doc_id``, ``relevance``), as :func:`read_qrels`.
    runs : dict of str to pandas.DataFrame
        The automatic systems' runs by name, as :func:`read_run`.
    manual_run : pandas.DataFrame or None
        The judges' own searches, which completed the pool (not a system to compare).
    """

    name: str
    documents: pd.DataFrame
    topics: pd.DataFrame
    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame] = field(default_factory=dict)
    manual_run: pd.DataFrame | None = None

    def __repr__(self) -> str:
        return (
            f"Collection({self.name!r}: {len(self.documents):,} documents, "
            f"{len(self.topics)} topics, {len(self.qrels):,} judgements, "
            f"runs {sorted(self.runs)})"
        )


def load_collection(name: str = "stdlib-docs") -> Collection:
    """Load a test collection from ``data/<name>/`` (see ``data/README.md``).

    Examples
    --------
    >>> collection = load_collection("stdlib-docs")
    >>> sorted(collection.runs)
    ['bm25', 'tfidf', 'title']
    >>> len(collection.topics)
    40
    """
    folder = data_path(name)
    if not (folder / "qrels.txt").is_file():
        raise FileNotFoundError(f"{folder} is not a test collection: it has no qrels.txt")
    documents = pd.read_json(folder / "docs.jsonl", lines=True, dtype=str)
    topics = pd.read_csv(folder / "topics.tsv", sep="\t", dtype=str, keep_default_na=False,
                         quoting=3)
    runs = {
        path.name.removesuffix(".run"): read_run(path)
        for path in sorted((folder / "runs").glob("*.run"))
    }
    manual = runs.pop("manual", None)
    return Collection(name, documents, topics, read_qrels(folder / "qrels.txt"), runs, manual)


# -- synthetic long-tailed labels ----------------------------------------------------------------

#: Where :func:`long_tailed_labels` sends a misclassified sample: to another class with
#: probability proportional to that class's size, or to any other class alike.
ERROR_TARGETS = ("proportional", "uniform")


def _check_long_tail(n_samples: Any, n_classes: Any, skew: Any) -> tuple[int, int, float]:
    n_classes = check_scalar(n_classes, "n_classes", kind="int", low=2)
    n_samples = check_scalar(n_samples, "n_samples", kind="int", low=2)
    skew = check_scalar(skew, "skew", low=0.0)
    if n_samples < n_classes:
        raise ValueError(f"n_samples must be at least n_classes ({n_classes}), so that every "
                         f"class has a sample; got {n_samples}")
    return n_samples, n_classes, skew


def _zipf_sizes(n_samples: int, n_classes: int, skew: float) -> np.ndarray:
    share = np.arange(1, n_classes + 1, dtype=np.float64) ** -skew
    quota = (n_samples - n_classes) * share / share.sum()
    sizes = np.floor(quota).astype(np.int64)
    left = n_samples - n_classes - int(sizes.sum())
    # The largest remainders get the samples left over; ties go to the larger class.
    order = np.argsort(-(quota - sizes), kind="stable")
    sizes[order[:left]] += 1
    return sizes + 1  # the one sample every class keeps


@keyword_only
def long_tailed_support(n_samples: int, *, n_classes: int, skew: float = 1.0) -> np.ndarray:
    r"""Class sizes of a long-tailed test set: Zipf shares of ``n_samples``, largest first.

    Class :math:`i` (:math:`i = 0, \ldots, k-1`) gets a share that follows Zipf's law,

    .. math::

        n_i \approx 1 + (N - k)\,\frac{(i + 1)^{-s}}{\sum_{j=1}^{k} j^{-s}},

    so every class keeps at least one sample; the :math:`N - k` shared samples are rounded to
    whole numbers by largest remainders (ties go to the larger class), so the sizes add up
    to :math:`N`. ``skew`` :math:`s = 0` gives (nearly) equal classes; a larger :math:`s`
    a longer tail. These are the class sizes of :class:`evalkit.widgets.AveragingModel`.

    Parameters
    ----------
    n_samples : int
        :math:`N`, the size of the test set; at least ``n_classes``.
    n_classes : int
        :math:`k`, the number of classes, >= 2.
    skew : float, default 1.0
        :math:`s`, the Zipf exponent, >= 0.

    Returns
    -------
    ndarray of int, shape (n_classes,)
        The support of each class, non-increasing, summing to ``n_samples``.

    References
    ----------
    Zipf, G. K. (1949). Human Behavior and the Principle of Least Effort. Addison-Wesley.
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class
    weighting of measures for relation classification. NLP Power! workshop, ACL, 32–41
    (long-tailed relation classes).

    Examples
    --------
    >>> long_tailed_support(100, n_classes=4, skew=1.0).tolist()
    [47, 24, 16, 13]
    >>> long_tailed_support(5000, n_classes=10, skew=2.0).tolist()
    [3221, 806, 359, 202, 130, 90, 67, 51, 41, 33]
    >>> long_tailed_support(8, n_classes=4, skew=0.0).tolist()
    [2, 2, 2, 2]
    """
    n_samples, n_classes, skew = _check_long_tail(n_samples, n_classes, skew)
    return _zipf_sizes(n_samples, n_classes, skew)


@keyword_only
def long_tailed_labels(n_samples: int, *, n_classes: int, skew: float = 1.0,
                       rare_weakness: float = 0.5, top_recall: float = 0.9,
                       errors_to: str = "proportional",
                       seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    r"""Simulated true and predicted labels of a long-tailed multi-class test set.

    The class sizes :math:`n_i` are :func:`long_tailed_support`. The simulated classifier's
    recall falls on the rarer classes:

    .. math::

        r_i = r_{\text{top}}\,(i + 1)^{-s w}
            \approx r_{\text{top}} \left(\frac{n_i}{n_0}\right)^{w},
        \qquad TP_i \sim \mathrm{Binomial}(n_i, r_i),

    with :math:`s` = ``skew``, :math:`w` = ``rare_weakness`` (0: equally good on every
    class) and :math:`r_{\text{top}}` = ``top_recall``. The :math:`n_i - TP_i` errors of
    class :math:`i` go to the other classes in one multinomial draw, to class :math:`j \ne i`
    with probability :math:`\propto n_j` (``errors_to="proportional"``: a classifier that
    leans towards frequent classes) or :math:`\propto 1` (``"uniform"``). The samples are
    then shuffled. Everything comes from one ``np.random.default_rng(seed)``, so the same
    arguments always give the same labels.

    Parameters
    ----------
    n_samples : int
        Size of the test set, at least ``n_classes``.
    n_classes : int
        Number of classes, >= 2. The labels are 0 .. n_classes - 1, class 0 the largest.
    skew : float, default 1.0
        Zipf exponent of the class sizes, >= 0.
    rare_weakness : float, default 0.5
        How much worse the classifier is on rare classes (:math:`w`), >= 0.
    top_recall : float, default 0.9
        Recall on the largest class, in (0, 1].
    errors_to : {"proportional", "uniform"}, default "proportional"
        Where misclassified samples go.
    seed : int, default 0
        Seed of ``np.random.default_rng``.

    Returns
    -------
    y_true, y_pred : ndarray of int, shape (n_samples,)

    References
    ----------
    Zipf, G. K. (1949). Human Behavior and the Principle of Least Effort. Addison-Wesley.
    Cao, K., Wei, C., Gaidon, A., Arechiga, N. and Ma, T. (2019). Learning imbalanced
    datasets with label-distribution-aware margin loss. NeurIPS 2019 (long-tailed labels).

    Examples
    --------
    >>> y_true, y_pred = long_tailed_labels(100, n_classes=4, skew=1.0, seed=0)
    >>> np.bincount(y_true).tolist()
    [47, 24, 16, 13]
    >>> from evalkit import confusion_matrix
    >>> confusion_matrix(y_true, y_pred)  # rows true class, columns predicted
    array([[42,  3,  0,  2],
           [ 4, 17,  1,  2],
           [ 2,  0, 12,  2],
           [ 4,  7,  0,  2]])
    """
    n_samples, n_classes, skew = _check_long_tail(n_samples, n_classes, skew)
    rare_weakness = check_scalar(rare_weakness, "rare_weakness", low=0.0)
    top_recall = check_scalar(top_recall, "top_recall", low=0.0, high=1.0,
                              low_inclusive=False)
    errors_to = check_option(errors_to, "errors_to", ERROR_TARGETS)
    seed = check_scalar(seed, "seed", kind="int", low=0)

    support = _zipf_sizes(n_samples, n_classes, skew)
    ranks = np.arange(1, n_classes + 1, dtype=np.float64)
    recall = top_recall * ranks ** -(skew * rare_weakness)
    rng = np.random.default_rng(seed)
    tp = rng.binomial(support, recall)
    pull = support.astype(np.float64) if errors_to == "proportional" else np.ones(n_classes)
    pvals = np.tile(pull, (n_classes, 1))
    np.fill_diagonal(pvals, 0.0)
    pvals /= pvals.sum(axis=1, keepdims=True)
    counts = (rng.multinomial(support - tp, pvals) + np.diag(tp)).ravel()
    classes = np.arange(n_classes)
    y_true = np.repeat(np.repeat(classes, n_classes), counts)
    y_pred = np.repeat(np.tile(classes, n_classes), counts)
    order = rng.permutation(n_samples)  # the order means nothing: shuffle it
    return y_true[order], y_pred[order]
