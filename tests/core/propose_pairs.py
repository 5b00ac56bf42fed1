"""Fictional (existing record, candidate, expected classification) pairs for the writer pass.

They tune and pin the thresholds of core/writer/similarity.py (docs/writer.md gives the
figures). Every name, number and place here is invented.
"""

from __future__ import annotations

# Same meaning, said again (possibly reworded): NO_CHANGE.
DUPLICATES = [
    ("I prefer green tea in the morning.", "I prefer green tea in the mornings"),
    ("My dentist is Dr. Alvarez in Northfield.", "My dentist is Dr Alvarez, in Northfield"),
    ("The Harbor project deadline is 2026-05-15.", "Harbor project deadline: 2026-05-15"),
    ("Maren is allergic to peanuts.", "Maren has a peanut allergy."),
    ("We decided to use PostgreSQL for the ledger service.", "We decided to use Postgres for the ledger service"),
    ("I run 5 km every Saturday morning.", "Every Saturday morning I run 5 km."),
    ("The team stand-up is at 9:15 on weekdays.", "Team stand-up happens at 9:15 every weekday."),
    ("Olle prefers to be called by his first name.", "Olle likes to be called by his first name."),
    ("The garden budget is 4000 kronor.", "The budget for the garden is 4000 kronor."),
    ("I am learning Portuguese on Tuesday evenings.", "I'm learning Portuguese on Tuesday evenings."),
    ("The backup drive is kept in the hall cupboard.", "The backup drive is stored in the hall cupboard."),
    ("Kestrel app uses Kotlin for the Android client.", "The Kestrel app's Android client is written in Kotlin."),
    ("I do not drink coffee after 3 pm.", "I don't drink coffee after 3 pm."),
    ("Prefer short answers without bullet lists.", "I prefer short answers without bullet lists."),
    ("The cabin's wifi router is in the attic.", "The wifi router of the cabin is in the attic."),
]

# Same subject, a different value (number, date, name, place, choice, polarity): SUPERSEDE.
CONFLICTS = [
    ("The garden budget is 4000 kronor.", "The garden budget is 5500 kronor."),
    ("My dentist is Dr. Alvarez in Northfield.", "My dentist is Dr. Okafor in Northfield."),
    ("The Harbor project deadline is 2026-05-15.", "The Harbor project deadline is 2026-06-30."),
    ("I prefer green tea in the morning.", "I prefer black coffee in the morning."),
    ("We decided to use PostgreSQL for the ledger service.", "We decided to use SQLite for the ledger service."),
    ("The team stand-up is at 9:15 on weekdays.", "The team stand-up is at 10:00 on weekdays."),
    ("My sister Ylva lives in Bergen.", "My sister Ylva lives in Tromsø."),
    ("I eat meat.", "I do not eat meat."),
    # Contract revision 4: the same words turned round, or a statement with added detail, is never a duplicate.
    ("I prefer black coffee over green tea.", "I prefer green tea over black coffee."),
    ("My sister Ylva lives in Bergen.", "My sister Ylva lives in Bergen, Norway."),
    ("The Kestrel release is planned for March.", "The Kestrel release is planned for May."),
    ("Choir practice is on Thursdays.", "Choir practice is on Wednesdays."),
    ("My laptop is a ThinkPad X1.", "My laptop is a MacBook Air."),
    ("I run 5 km every Saturday morning.", "I run 10 km every Saturday morning."),
    ("Olle's phone extension is 4417.", "Olle's phone extension is 4420."),
    ("The Lindqvist garden tomatoes go in the south bed.", "The Lindqvist garden tomatoes go in the north bed."),
    ("Prefer answers in English.", "Prefer answers in Swedish."),
    ("The office is on the third floor.", "The office is on the fifth floor."),
]

# The candidate ends what an existing record says, without replacing it: ARCHIVE.
ENDINGS = [
    ("I play tennis on Sunday mornings.", "I no longer play tennis on Sundays."),
    ("I have a gym membership at FitZone.", "I cancelled the FitZone gym membership."),
    ("I take an evening Spanish course on Tuesdays.", "I stopped the Tuesday Spanish course."),
    ("The Friday yoga class starts at 7.", "The Friday yoga class was cancelled."),
    ("I subscribe to the Nordic Sailing magazine.", "I'm not subscribed to Nordic Sailing magazine anymore."),
    ("I volunteer at the library book sale every spring.", "I quit volunteering at the library book sale."),
    (
        "Weekly sync with the Harbor vendor on Mondays.",
        "The weekly Harbor vendor sync on Mondays has been discontinued.",
    ),
    ("I am training for the Lakeside half marathon.", "I gave up training for the Lakeside half marathon."),
    ("Maren takes piano lessons on Wednesdays.", "Maren doesn't take piano lessons anymore."),
    ("The Kestrel beta programme is running.", "The Kestrel beta programme has ended."),
]

# Same topic (shared words), but a different fact that does not replace the record: ADD.
DISTINCT = [
    ("My sister Ylva lives in Bergen.", "My brother Arvid lives in Bergen."),
    ("The garden budget is 4000 kronor.", "The kitchen renovation budget is 90000 kronor."),
    ("I prefer green tea in the morning.", "I prefer jazz while working."),
    ("The Harbor project deadline is 2026-05-15.", "The Harbor project uses a Go backend."),
    ("I run 5 km every Saturday morning.", "I swim at the public pool on Wednesdays."),
    ("Maren is allergic to peanuts.", "Maren's favourite colour is yellow."),
    ("We decided to use PostgreSQL for the ledger service.", "The ledger service is deployed on Fridays."),
    ("The team stand-up is at 9:15 on weekdays.", "The team retrospective is every second Friday."),
    ("Olle's phone extension is 4417.", "Olle works in the finance department."),
    ("My dentist is Dr. Alvarez in Northfield.", "My optician is in the Northfield mall."),
    ("I play tennis on Sunday mornings.", "I watch tennis on television at night."),
    ("The office is on the third floor.", "The office has a bike room in the basement."),
    ("The cabin's wifi router is in the attic.", "The cabin's fuse box is behind the kitchen door."),
    ("Choir practice is on Thursdays.", "The choir sings at the spring concert in May."),
]

# Written after the rules above were tuned, to measure them on pairs they were not fitted to
# (docs/writer.md reports both figures). Same four kinds, in this order.
HELD_OUT = {
    "same": [
        ("Our flat's rent is 9800 kronor a month.", "The rent for our flat is 9800 kronor per month."),
        ("Ingrid leads the data platform team.", "Ingrid is the lead of the data platform team."),
        ("I take the 7:40 train to work.", "I take the 7:40 train to the office."),
        ("The Kestrel repo lives on the internal GitLab.", "Kestrel's repository is hosted on the internal GitLab."),
        ("Arvid's birthday is on 12 August.", "Arvid has his birthday on 12 August."),
        ("I never eat breakfast before 8.", "I never have breakfast before 8."),
        ("The car needs winter tyres by November.", "The car needs its winter tyres by November."),
        ("We use pnpm for the web front end.", "For the web front end we use pnpm."),
    ],
    "conflict": [
        ("Our flat's rent is 9800 kronor a month.", "Our flat's rent is 10400 kronor a month."),
        ("Ingrid leads the data platform team.", "Tomas leads the data platform team."),
        ("I take the 7:40 train to work.", "I take the 8:10 train to work."),
        ("Arvid's birthday is on 12 August.", "Arvid's birthday is on 21 August."),
        ("We use pnpm for the web front end.", "We use yarn for the web front end."),
        ("The car is a red Volvo.", "The car is a blue Volvo."),
        ("The book club meets monthly.", "The book club meets weekly."),
        ("I like spicy food.", "I don't like spicy food."),
    ],
    "ends": [
        ("I commute by bike in the summer.", "I no longer commute by bike."),
        ("The Sunday newspaper is delivered to the cabin.", "We cancelled the Sunday newspaper delivery to the cabin."),
        ("I mentor two junior developers.", "I stopped mentoring the junior developers."),
        ("Ylva plays in a handball team.", "Ylva has quit the handball team."),
        (
            "The monthly Kestrel investor update is sent by Tomas.",
            "The monthly Kestrel investor update was discontinued.",
        ),
        ("I am saving for a sailing boat.", "I'm not saving for a sailing boat anymore."),
    ],
    "unrelated": [
        ("Our flat's rent is 9800 kronor a month.", "Our flat has three bedrooms."),
        ("Ingrid leads the data platform team.", "Ingrid leads the Thursday running group."),
        ("I take the 7:40 train to work.", "I take vitamin D in the winter."),
        ("The car is a red Volvo.", "The car's insurance renews in October."),
        ("Arvid's birthday is on 12 August.", "Arvid's wedding anniversary is on 3 May."),
        ("We use pnpm for the web front end.", "We use Terraform for the cloud setup."),
        ("The book club meets monthly.", "The book club is reading a novel by Selma Lagerlöf."),
        ("I commute by bike in the summer.", "I go skiing in the winter."),
    ],
}

# Added for issue 11 (the labelled set of >= 100 pairs that memory_add and memory_propose share),
# written before measuring. Same record/candidate order; each list names its expected outcome.

# Reworded with different words for the same meaning: NO_CHANGE.
PARAPHRASES = [
    ("I cycle to the office most days.", "Most days I cycle to the office."),
    ("Tomas is the product owner of Kestrel.", "The product owner of Kestrel is Tomas."),
    ("Our daughter Saga starts school in August.", "Saga, our daughter, starts school in August."),
    ("The heat pump is serviced every October.", "Every October the heat pump gets serviced."),
    ("I keep my passport in the top desk drawer.", "My passport is kept in the top desk drawer."),
    (
        "We host the family dinner on the first Sunday of the month.",
        "The family dinner is hosted by us on the first Sunday of the month.",
    ),
    ("The Kestrel staging server runs Debian 12.", "Kestrel's staging server runs on Debian 12."),
    ("I avoid meetings before 10:00.", "I avoid any meetings before 10:00."),
    ("The allotment plot number is 27.", "Our allotment is plot number 27."),
    ("Ylva's flight lands at 18:45 on Friday.", "On Friday Ylva's flight lands at 18:45."),
]

# A newer state of the same thing, said as a change: SUPERSEDE.
UPDATES = [
    ("I use Vim for editing.", "I switched from Vim to Helix for editing."),
    ("The ledger service runs on Python 3.10.", "The ledger service now runs on Python 3.12."),
    ("My commute is by bus.", "I stopped taking the bus and commute by bike instead."),
    ("The Harbor stand-up is on Zoom.", "The Harbor stand-up moved from Zoom to Teams."),
    ("Our broadband provider is Telia.", "Our broadband provider is Bahnhof now."),
    ("I am reading Moby-Dick.", "I am reading The Old Man and the Sea."),
    ("The Kestrel team has 4 developers.", "The Kestrel team has 6 developers."),
    ("The car insurance renews in October.", "The car insurance renews in January."),
    ("Arvid works at the Uppsala office.", "Arvid works at the Gothenburg office."),
    ("My monthly savings target is 3000 kronor.", "My monthly savings target is 4500 kronor."),
]

# Same shape and many shared words, a different fact that replaces nothing: ADD.
LOOKALIKES = [
    ("The Harbor project deadline is 2026-05-15.", "The Kestrel project deadline is 2026-05-15."),
    ("I prefer green tea in the morning.", "Maren prefers green tea in the morning."),
    ("The team stand-up is at 9:15 on weekdays.", "The team lunch is at 12:00 on weekdays."),
    ("My sister Ylva lives in Bergen.", "My sister Ylva works in Bergen."),
    ("I run 5 km every Saturday morning.", "I run the dishwasher every Saturday morning."),
    ("The office is on the third floor.", "The archive is on the third floor."),
    ("Olle's phone extension is 4417.", "Olle's desk number is 4417."),
    ("Choir practice is on Thursdays.", "Choir practice is in the school hall."),
    ("We use pnpm for the web front end.", "We use Playwright for the web front end tests."),
    ("The cabin's wifi router is in the attic.", "The cabin's smoke alarm is in the attic."),
]

# Pleasantries and moods sent as memories: refused by the gate before any comparison.
CHATTER_PAIRS = [
    ("I prefer green tea in the morning.", "sounds good to me"),
    ("The team stand-up is at 9:15 on weekdays.", "great, thanks a lot"),
    ("I run 5 km every Saturday morning.", "I'm feeling really grumpy today"),
    ("The Kestrel release is planned for March.", "ok perfect"),
    ("My dentist is Dr. Alvarez in Northfield.", "Thank you so much!"),
    ("Choir practice is on Thursdays.", "That works for me."),
    ("The garden budget is 4000 kronor.", "I am so tired right now"),
    ("Ylva plays in a handball team.", "haha nice"),
    ("We use pnpm for the web front end.", "cool, makes sense"),
    ("I commute by bike in the summer.", "feeling a bit down this morning"),
]

# Added for issue 11's change phrasing ("switched from X to Y" and its siblings), written before
# measuring. A change replaces the record that holds X when it is about the same thing: SUPERSEDE.
CHANGES = [
    ("We use Jenkins for CI.", "We replaced Jenkins with GitHub Actions for CI."),
    ("I drink coffee in the morning.", "I drink tea instead of coffee in the morning."),
    ("My editor is Vim.", "I changed my editor to Helix."),
    ("The weekly review is on Mondays.", "We moved the weekly review from Mondays to Thursdays."),
    ("Our team chat runs on Slack.", "Our team chat moved from Slack to Matrix."),
    ("I work at Acme Robotics.", "I'm no longer at Acme Robotics, now I work at Birchwood Labs."),
    ("The Osprey backend is written in Python.", "We migrated the Osprey backend from Python to Go."),
    ("I bank with Nordbank.", "I switched from Nordbank to Sparbanken last spring."),
    ("My phone is a Pixel 6.", "I changed from a Pixel 6 to an iPhone 15."),
    ("I use Firefox as my browser.", "I no longer use Firefox, now I use Vivaldi."),
    ("We store the Heron backups on a NAS.", "We replaced the NAS with Backblaze for the Heron backups."),
    ("I commute by car.", "I cycle to work instead of driving the car."),
    ("The book club meets at the library.", "The book club moved from the library to Café Linnea."),
    ("My sister Ylva lives in Bergen.", "My sister Ylva moved from Bergen to Oslo."),
]

# Said as a change, near a record it does not replace (another person, another thing): ADD.
CHANGE_LOOKALIKES = [
    ("I use Vim for editing.", "Maren switched from Vim to Emacs last year."),
    ("Vim has a steep learning curve.", "I switched from Vim to Helix."),
    ("We use Jenkins for CI.", "We replaced the old Jenkins server's disk with an SSD."),
    ("I drink coffee in the morning.", "I take the bus instead of the tram on rainy days."),
    ("The weekly review is on Mondays.", "The dentist appointment moved from Tuesday to Friday."),
    ("Our team chat runs on Slack.", "We moved the design files from Dropbox to Slack."),
    ("The Osprey backend is written in Python.", "The Falcon backend was migrated from Ruby to Python."),
    # found in the demo data while taking the import dialog's screenshot, after the first measurement:
    # the record holds X ("Dagster") but is about something else (which reports run where)
    (
        "Atlas: eight of the eleven billing reports run in Dagster; three still run from cron.",
        "We switched the Atlas orchestrator from Dagster to Prefect.",
    ),
]

# The same change said again in other words: NO_CHANGE.
CHANGE_SAME = [
    ("We replaced Jenkins with GitHub Actions for CI.", "For CI we replaced Jenkins with GitHub Actions."),
    ("I switched from Vim to Helix for editing.", "For editing I switched from Vim to Helix."),
]
