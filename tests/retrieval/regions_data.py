"""A fictional person's memory across four regions, for router, discovery and view tests.

Every statement is invented. Each region has its own vocabulary, with a little overlap
(the person cooks tomatoes they grow), so cross-domain requests have something to find.
"""

from __future__ import annotations

from typing import Any

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller

GARDEN = [
    "The tomato seedlings in the greenhouse need watering every second morning",
    "Compost from the kitchen scraps goes onto the raised vegetable beds in spring",
    "Slugs ate most of the lettuce in the north bed last summer",
    "The apple tree in the back garden is pruned every February",
    "Basil grows best on the sunny windowsill, not in the garden soil",
    "Neem oil spray keeps aphids off the roses in the garden",
    "The greenhouse heater is set to eight degrees for the winter seedlings",
    "Courgette plants need more space than the seed packet says",
    "Mulching the vegetable beds with straw keeps the soil moist",
    "The garden hose reel is broken and needs a new coupling",
    "Sweet peas are sown in the greenhouse in October",
    "The raspberry canes by the garden fence fruit in July",
    "Potato plants in the vegetable patch were hit by blight",
    "Tomato plants get a seaweed feed once the first flowers open",
    "The garden soil is heavy clay and drains slowly",
]
FINANCE = [
    "The mortgage fixed rate ends in March and must be renegotiated with the bank",
    "Monthly budget for groceries is four hundred euros",
    "Tax return for the freelance invoices is due at the end of January",
    "The pension contribution is six percent of salary with an employer match",
    "Savings account interest dropped to two percent this quarter",
    "The credit card statement closes on the twelfth of each month",
    "Index fund investments are rebalanced once a year",
    "Freelance invoices are sent on the first working day of the month",
    "The household budget spreadsheet tracks every recurring bill",
    "Car insurance premium went up after the renewal",
    "Electricity bill is paid by direct debit from the joint account",
    "An emergency fund of three months of expenses sits in the savings account",
    "The accountant prepares the annual tax return for a fixed fee",
    "The bank charges a fee for international transfers",
    "Budget review with the partner happens on the last Sunday of the month",
]
HEALTH = [
    "Physiotherapy for the left knee is every Tuesday afternoon",
    "The running plan builds up to a half marathon in the autumn",
    "Allergic to penicillin since childhood",
    "Blood pressure readings are logged every morning before breakfast",
    "The dentist appointment for the check-up is booked every six months",
    "Strength training at the gym on Monday and Thursday evenings",
    "Sleep improves when there is no screen time after ten",
    "The knee injury came from a running race on wet cobbles",
    "Vitamin D supplement is taken during the winter months",
    "The doctor recommended stretching the hamstrings after every run",
    "Resting heart rate dropped after three months of cycling",
    "Yoga class on Saturday morning helps the back pain",
    "Annual flu vaccination at the pharmacy in October",
    "The physiotherapist suggested new running shoes with more support",
    "Drinking coffee after three in the afternoon ruins the sleep",
]
SOFTWARE = [
    "The memvault project uses Python with a SQLCipher encrypted database",
    "Continuous integration runs the pytest suite on every commit",
    "Decided to use PostgreSQL for the invoicing web service backend",
    "The deployment script pushes the container image to the staging server",
    "Type checking runs with mypy in strict mode",
    "The API rate limiter failed under load testing with many clients",
    "Refactoring the database migrations into numbered SQL files",
    "The frontend uses TypeScript and a small component library",
    "Code review happens through pull requests with two approvals",
    "The logging framework writes structured JSON to the log file",
    "Unit tests mock nothing of the database layer",
    "The staging server runs the same container image as production",
    "Python virtual environments are created with the venv module",
    "The web service exposes a REST API with token authentication",
    "Git branches are rebased before merging into main",
]
REGIONS = {"garden": GARDEN, "finance": FINANCE, "health": HEALTH, "software": SOFTWARE}


def fill(vault: Vault, *, explicit: bool = True, caller: Caller = OWNER, **fields: Any) -> dict[str, list[str]]:
    """Write every region's statements; with `explicit`, each in its own named domain."""
    ids: dict[str, list[str]] = {}
    for region, statements in REGIONS.items():
        for statement in statements:
            extra = {"domain": region} if explicit else {}
            answer = vault.add(caller, Draft.of(statement=statement, **extra, **fields))
            assert answer["outcome"] == "added", answer
            ids.setdefault(region, []).append(answer["id"])
    return ids
