"""The dice and ledger service: signed, chained dice receipts that nobody can reroll unseen."""
