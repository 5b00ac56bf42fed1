"""Benchmark tests: the small slice of the frozen data set, real encrypted stores, the official MCP client."""

from __future__ import annotations

import pytest

from memvault.core.bench import dataset
from memvault.core.bench.dataset import DataSet


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def small() -> DataSet:
    return dataset.load("small")
