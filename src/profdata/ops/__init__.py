"""Operations on the model: merge, show, overlap, summaries.  No bytes."""
