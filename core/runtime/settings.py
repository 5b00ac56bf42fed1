"""Every setting declared once: name, type, default, description, allowed values.

Validation, `memvault config`, the docs and the settings window all come from
this table. Values live in the store's `settings` table as JSON; an environment
variable, where declared, overrides the stored value for that process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import KillSwitch, Scope, WriteMode


@dataclass(frozen=True)
class Setting:
    name: str
    kind: type[Any]
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    env: str | None = None
    item_choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, raw: Any) -> Any:
        """Validate a value given by a person (CLI text) or a program (typed)."""
        value: Any = raw
        if self.kind is bool and isinstance(raw, str):
            if raw.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise InvalidArgument(f"{self.name}: expected true or false")
            value = raw.lower() in ("true", "1", "yes", "on")
        elif self.kind is float and isinstance(raw, str | int) and not isinstance(raw, bool):
            try:
                value = float(raw)
            except ValueError:
                raise InvalidArgument(f"{self.name}: expected a number") from None
        elif self.kind is list and isinstance(raw, str):
            value = [item.strip() for item in raw.split(",") if item.strip()]
        if not isinstance(value, self.kind) or (self.kind is float and isinstance(value, bool)):
            raise InvalidArgument(f"{self.name}: expected {self.kind.__name__}")
        if self.choices and value not in self.choices:
            raise InvalidArgument(f"{self.name}: expected one of {', '.join(self.choices)}")
        if self.kind is list and (
            not all(isinstance(v, str) for v in value)
            or (self.item_choices and not set(value) <= set(self.item_choices))
        ):
            raise InvalidArgument(f"{self.name}: expected a list of {', '.join(self.item_choices) or 'names'}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidArgument(f"{self.name}: at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidArgument(f"{self.name}: at most {self.maximum}")
        return value

    def from_env(self) -> Any | None:
        if self.env and os.environ.get(self.env):
            return self.parse(os.environ[self.env])
        return None

    def value(self, stored: Any | None) -> Any:
        """The value in force: the environment's, else the stored one, else the default."""
        from_env = self.from_env()
        if from_env is not None:
            return from_env
        return self.default if stored is None else stored


def _weight(name: str, default: float, description: str, maximum: float = 5.0) -> Setting:
    return Setting(name, float, default, description, minimum=0.0, maximum=maximum)


# The retrieval brain's settings (docs/retrieval.md explains each). The ranking weights'
# defaults were tuned on the evaluation set in tests/retrieval/ (tune_weights.py).
RETRIEVAL_SETTINGS = (
    Setting(
        "embeddings",
        str,
        "local",
        "local: embed records with the local ONNX model and search by meaning too; off: lexical only.",
        choices=("local", "off"),
        env="MEMVAULT_EMBEDDINGS",
    ),
    _weight("rank_w_lexical", 0.1, "Ranking: how far word and trigram matches alone make a record relevant (0..1)."),
    _weight("rank_w_semantic", 0.65, "Ranking: how far similarity of meaning alone makes a record relevant (0..1)."),
    _weight("rank_w_graph", 0.5, "Ranking: weight of relevance passed along links and shared entities."),
    _weight("rank_w_domain", 0.1, "Ranking: weight of the router's domain weight."),
    _weight("rank_w_status", 0.25, "Ranking: weight of the record's status (current over partial over disputed)."),
    _weight("rank_w_confidence", 0.0, "Ranking: weight of confidence."),
    _weight("rank_w_importance", 0.5, "Ranking: weight of importance."),
    _weight("rank_w_recency", 0.0, "Ranking: weight of valid-time recency (newer statements first)."),
    _weight("rank_w_activation", 0.1, "Ranking: weight of activation (recent use and confirmation; the tiers)."),
    _weight("rank_w_explicit", 0.05, "Ranking: weight of explicit over inferred statements."),
    _weight("rank_w_feedback", 0.15, "Ranking: weight of the useful / not useful feedback balance."),
    _weight("rank_min_relevance", 0.15, "Ranking: relevance below this is not a hit (nothing beats nothing).", 1.0),
    _weight("rank_semantic_floor", 0.15, "Ranking: cosine similarity that counts as zero semantic relevance.", 1.0),
    Setting(
        "search_deadline_ms", float, 250.0, "A search returns its best so far after this long.", minimum=10, maximum=1e4
    ),
    _weight("domain_max_share", 0.6, "Packet: most of the token budget one domain may take when several match.", 1.0),
    Setting("graph_max_depth", float, 2.0, "Hops of graph expansion at depth=deep.", minimum=0, maximum=3),
    Setting("tier_half_life_days", float, 90.0, "Idle days that halve activation.", minimum=1, maximum=3650),
    _weight("tier_hot", 0.6, "Activation at or above which a record is hot.", 1.0),
    _weight("tier_cold", 0.15, "Activation below which a record is cold (only depth=deep reaches it).", 1.0),
)


# The memory benchmark (docs/benchmark.md). The end-to-end mode sends fictional benchmark text to the
# endpoint named here; its API key is read from MEMVAULT_BENCH_API_KEY only, never stored.
BENCH_SETTINGS = (
    Setting(
        "bench_native_budget_tokens",
        float,
        800.0,
        "Benchmark: tokens of the native-memory stand-in (the saved list injected into every request).",
        minimum=100,
        maximum=20000,
    ),
    Setting(
        "bench_end_to_end",
        bool,
        False,
        "Benchmark: also run the conditions end to end (answering model + judge) on the endpoint below. "
        "Off by default; the kill switch (any position but off) stops it.",
    ),
    Setting(
        "bench_endpoint",
        str,
        "",
        "Benchmark: base URL of an OpenAI-compatible API (e.g. http://127.0.0.1:8080/v1) for the end-to-end mode.",
    ),
    Setting("bench_answer_model", str, "", "Benchmark: the model that answers in the end-to-end mode."),
    Setting("bench_judge_model", str, "", "Benchmark: the model that judges answers in the end-to-end mode."),
)


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "write_mode",
            str,
            WriteMode.REVIEW_BEFORE_WRITE.value,
            "What assistants' writes do: nothing, wait in the approval inbox, or commit "
            "non-sensitive high-confidence writes within approved domains and scopes.",
            choices=tuple(m.value for m in WriteMode),
            env="MEMVAULT_WRITE_MODE",
        ),
        Setting(
            "kill_switch",
            str,
            KillSwitch.OFF.value,
            "The store's kill switch, which every machine using the store honours: off; remote: every "
            "remote or workspace call is refused; all: local MCP calls too. Each machine has its own "
            "position as well (`memvault kill-switch`); the stronger of the two is in force.",
            choices=tuple(k.value for k in KillSwitch),
        ),
        Setting(
            "auto_write_min_confidence",
            float,
            0.8,
            "Automatic mode commits only writes at least this confident.",
            minimum=0.0,
            maximum=1.0,
        ),
        Setting(
            "auto_write_domains",
            list,
            [],
            "Domains where automatic mode may commit: names, or * for any domain (new ones too); empty "
            "means every domain the assistant can already see (a write that would open a new domain waits for review).",
        ),
        Setting(
            "auto_write_review_changes",
            bool,
            False,
            "In automatic mode, still send an assistant's corrections, archives and restores to the approval "
            "inbox (they commit inside the approved scope otherwise; the old version always stays in history).",
        ),
        Setting(
            "auto_write_scopes",
            list,
            [Scope.LOCAL_ONLY.value],
            "Access scopes automatic mode may commit without review.",
            item_choices=tuple(s.value for s in Scope),
        ),
        Setting("default_search_limit", float, 8.0, "Records a search returns unless asked.", minimum=1, maximum=50),
        Setting(
            "packet_max_tokens",
            float,
            1200.0,
            "Token budget of a search packet unless asked.",
            minimum=50,
            maximum=20000,
        ),
        Setting(
            "domain_upkeep",
            str,
            "auto",
            "What the daemon's hourly domain upkeep may do: auto (re-discover regions as the store "
            "grows and place waiting records), refresh (only recompute each domain's keywords and "
            "centroid; move nothing), off.",
            choices=("auto", "refresh", "off"),
        ),
        *RETRIEVAL_SETTINGS,
        *BENCH_SETTINGS,
    )
}


def setting(name: str) -> Setting:
    try:
        return SETTINGS[name]
    except KeyError:
        raise InvalidArgument(f"unknown setting {name!r}; known: {', '.join(SETTINGS)}") from None
