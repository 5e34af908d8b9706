from __future__ import annotations

import pytest

from shared.fairness.vectors import Vectors, load_vectors


@pytest.fixture(scope="session")
def vectors() -> Vectors:
    return load_vectors()
