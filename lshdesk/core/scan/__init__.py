"""The scan: the front end that reads and signs batches, the store, the signature cache, the pipeline, the engines."""
