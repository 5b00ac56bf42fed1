"""onnxruntime without its telemetry: nothing phoned home, no file outside memvault's folders.

On import, onnxruntime 1.32 writes a device id and a queue of telemetry events under
`~/.cache/Microsoft/DeveloperTools/.onnxruntime/` unless `ORT_DISABLE_TELEMETRY` is set
before its library loads; `disable_telemetry_events()` alone does not prevent that.
"""

from __future__ import annotations

import os
from typing import Any


def import_onnxruntime() -> Any:
    """The onnxruntime module, its telemetry off before it first loads."""
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    import onnxruntime  # noqa: PLC0415 - heavy, and must load after the switch

    onnxruntime.disable_telemetry_events()
    return onnxruntime
