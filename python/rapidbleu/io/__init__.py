"""Reading inputs: reference and system files in chunks, decompression, decoding errors."""
