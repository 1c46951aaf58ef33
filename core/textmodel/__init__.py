"""Linear text models at run time without scikit-learn.

scikit-learn fits the local models (the intent classifier, the research mode analyzer) when they
are trained; what they learned -- the TF-IDF vocabularies and weights, the logistic regression's
coefficients -- is exported into these plain numpy classes, which compute the very same
probabilities (the same floating-point operations in the same order). Importing scikit-learn and
SciPy would cost a process ~80 MB and ~1 s; numpy is loaded anyway.
"""

from core.textmodel.archive import load_current, read_archive, write_archive
from core.textmodel.logistic import LogisticModel, SparseRow
from core.textmodel.tfidf import TfidfTerms

__all__ = ["LogisticModel", "SparseRow", "TfidfTerms", "load_current", "read_archive", "write_archive"]
