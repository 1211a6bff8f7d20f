"""Commands that need both the referee's judgement and the builder's art (a layer above both)."""
