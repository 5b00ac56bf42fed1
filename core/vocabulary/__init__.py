"""The vocabulary every layer speaks: records, drafts, requests, answers, errors and time."""
