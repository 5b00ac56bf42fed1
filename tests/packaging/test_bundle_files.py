"""The desktop bundle's inputs: hashed pins that cover every runtime dependency, every resource collected, and a
working menu entry."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).parents[2]
LOCK = ROOT / "packaging" / "bundle" / "requirements-linux-x86_64.txt"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+) \\\n    --hash=sha256:[0-9a-f]{64}$", re.MULTILINE)


def pinned() -> dict[str, Version]:
    text = LOCK.read_text()
    entries = [block for block in re.split(r"\n(?=[A-Za-z])", text) if not block.startswith("#")]
    found = {canonicalize_name(m[1]): Version(m[2]) for m in PIN.finditer(text)}
    assert len(found) == len(entries), "every package is pinned to one version with a sha256"
    return found


def test_every_runtime_dependency_is_pinned_within_its_bounds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = pinned()
    for spec in project["dependencies"]:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is missing from {LOCK.name}"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is outside {requirement.specifier}"
    assert {"pyinstaller", "pyinstaller-hooks-contrib"} <= set(pins)
    assert "keyrings-alt" not in pins, "a plaintext keyring backend must never ship"


def _fake_bundle(tmp_path: Path) -> Path:
    bundle = tmp_path / "opt" / "memvault"
    (bundle / "share" / "icons").mkdir(parents=True)
    (bundle / "share" / "applications").mkdir(parents=True)
    shutil.copy(ROOT / "packaging" / "linux" / "memvault-bundle.svg", bundle / "share" / "icons" / "memvault.svg")
    template = ROOT / "packaging" / "linux" / "memvault-bundle.desktop.in"
    shutil.copy(template, bundle / "share" / "applications" / "memvault.desktop.in")
    shutil.copy(ROOT / "packaging" / "linux" / "install-desktop-entry.sh", bundle / "install-desktop-entry.sh")
    return bundle


def test_the_menu_entry_points_at_the_unpacked_bundle_and_goes_away_again(tmp_path: Path) -> None:
    bundle = _fake_bundle(tmp_path)
    data = tmp_path / "xdg-data"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)}
    subprocess.run(["bash", str(bundle / "install-desktop-entry.sh")], env=env, check=True, capture_output=True)
    entry = (data / "applications" / "memvault.desktop").read_text()
    fields = dict(line.split("=", 1) for line in entry.splitlines() if "=" in line)
    assert entry.startswith("[Desktop Entry]\n")
    assert fields["Exec"] == f"{bundle}/memvault app" and fields["TryExec"] == f"{bundle}/memvault"
    assert fields["Icon"] == "memvault" and fields["Type"] == "Application" and fields["Terminal"] == "false"
    assert "@" not in entry
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "memvault.svg").read_text().startswith("<svg")
    subprocess.run(
        ["bash", str(bundle / "install-desktop-entry.sh"), "--remove"], env=env, check=True, capture_output=True
    )
    assert not (data / "applications" / "memvault.desktop").exists()


def test_the_bundle_collects_every_resource_the_wheel_ships() -> None:
    """The spec names the package data it collects by pattern; each resource file must match one. (The writer's
    heads, resources/writer/*.bin, once matched none: the bundle's writer judged moods, secrets and sensitive
    matters by its rules alone.) Patterns as PyInstaller reads them, relative to the package: `**` any folders."""
    spec = (ROOT / "packaging" / "bundle" / "memvault.spec").read_text()
    call = re.search(r'collect_data_files\(\s*"memvault",\s*includes=\[(.*?)\]\)', spec, re.DOTALL)
    assert call is not None, "the spec collects memvault's data by include patterns"
    patterns = [pattern.replace("**", "*") for pattern in re.findall(r'"([^"]+)"', call[1])]
    resources = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "resources").rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc")
    ]
    assert any(name.endswith(".bin") for name in resources)
    assert [name for name in resources if not any(fnmatch(name, pattern) for pattern in patterns)] == []
