"""Settings for the Kestrel API, read from config/kestrel.yml and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"


@dataclass(frozen=True)
class Settings:
    database_path: Path
    token_file: Path
    max_note_bytes: int
    escalation_channel: str
    upstream_url: str


def load_settings(environment: str | None = None) -> Settings:
    environment = environment or os.environ.get("KESTREL_ENV", "current")
    base = yaml.safe_load((CONFIG_DIR / "kestrel.yml").read_text(encoding="utf-8"))
    overrides = yaml.safe_load((CONFIG_DIR / f"{environment}.yml").read_text(encoding="utf-8"))
    merged = {**base, **(overrides or {})}
    return Settings(
        database_path=Path(merged["database"]["path"]),
        token_file=Path(merged["auth"]["token_file"]),
        max_note_bytes=int(merged["notes"]["max_bytes"]),
        escalation_channel=merged["escalation"]["channel"],
        upstream_url=merged["sync"]["upstream_url"],
    )
