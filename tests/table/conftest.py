"""Fixtures for the table's tests: fake session, toy mapper, manual clock, a registry in a temp file."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.table import ManualClock, Table, TableConfig, TagRegistry

from .table_fakes import TOY_READERS, FakeSession, toy_games


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def session() -> FakeSession:
    return FakeSession()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "table.sqlite3"


@pytest.fixture
def registry(db_path: Path):
    reg = TagRegistry.open(db_path)
    yield reg
    reg.close()


@pytest.fixture
def config() -> TableConfig:
    return TableConfig(settle_ms=300, removal_ms=400, readers=TOY_READERS)


@pytest.fixture
def table(session: FakeSession, config: TableConfig, registry: TagRegistry, clock: ManualClock) -> Table:
    return Table(session, config, registry, clock=clock, games=toy_games)
