"""Importing a person's history: readers of the products' real export formats, the passes of an
import (inventory, candidates, dedup and conflicts, provenance), dry run, commit, rollback."""
