"""Graph passes over Symbols (shape/type inference, memory planning) and the Executor."""
