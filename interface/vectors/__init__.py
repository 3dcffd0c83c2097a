"""Test vectors: generated from the registry and the references, versioned, with a JSON Schema; read and checked here."""
