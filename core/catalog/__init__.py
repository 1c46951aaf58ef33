"""The offline catalog: a packaged snapshot of the most-starred GitHub repositories.

Data: ``github-ranking.csv.gz``, derived from EvanLi/Github-Ranking
(https://github.com/EvanLi/Github-Ranking), MIT License, Copyright (c) 2018 Evan Li -- see
``DATA_LICENSE.md`` next to the data. Four snapshot dates (2025-08-18, 2026-02-22, 2026-05-22,
2026-08-22) give star growth over ~6 and ~12 months; the newest date is the catalog's
``snapshot_date``, which every reply built on it shows.

Curated lists (``data/``, see ``core.catalog.lists`` and ``data/AWESOME_LISTS.md``): categories for
the snapshot's repositories, plus ~13,000 repositories known only from the lists, which have no
figures (``figures_known`` is False).

    catalog = Catalog.load()          # parsed + indexed once per process (SQLite FTS5 in memory)
    catalog.names.resolve("zustand")  # RepoNameIndex for the classifier
    catalog.source()                  # RepoSource for the agents
"""

from core.catalog.catalog import Catalog
from core.catalog.names import CatalogNames
from core.catalog.records import CatalogRecord
from core.catalog.source import CatalogSource

__all__ = ["Catalog", "CatalogNames", "CatalogRecord", "CatalogSource"]
