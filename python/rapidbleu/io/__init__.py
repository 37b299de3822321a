"""Reading the command's inputs.

``chunks``: chunks of aligned lines, read by the Rust reader for UTF-8, with systems in batches
that fit the open-file limit; ``reader``: the Python reader for other encodings and for
``--jsonl`` (decompression, Python's codecs, decoding errors).
"""
