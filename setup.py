"""Map the fixed top-level folders onto the `memvault.*` namespace.

Computed rather than listed by hand: a sub-package missing from an explicit list
still imports in an editable install but is absent from the wheel.
"""

from setuptools import find_packages, setup

TOP_LEVEL = ("core", "mcp_bridge", "desktop", "resources")

packages = ["memvault"]
package_dir = {"memvault": "packaging/namespace"}
for top in TOP_LEVEL:
    packages.append(f"memvault.{top}")
    package_dir[f"memvault.{top}"] = top
    for sub in find_packages(top):
        packages.append(f"memvault.{top}.{sub}")
        package_dir[f"memvault.{top}.{sub}"] = f"{top}/{sub.replace('.', '/')}"
# What `memvault install codex|claude` puts in place (the Codex skill...).
packages.append("memvault.client_templates")
package_dir["memvault.client_templates"] = "packaging/clients"

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        "memvault": ["py.typed"],
        "memvault.core.store.sqlcipher": ["migrations/*.sql"],
        "memvault.core.store.postgres": ["migrations/*.sql"],
        "memvault.client_templates": ["**/*.md"],
        "memvault.resources": [
            "*.json",
            "*.jsonl",
            "*.txt",
            "*.md",
            "*.svg",
            "*.png",
            "models/*",
            "writer/*",
            "demo/*.jsonl",
            "icons/*",
            "bench/*.jsonl",
            "skills/*/*.md",
        ],
    },
    include_package_data=False,
)
