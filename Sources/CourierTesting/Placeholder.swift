// Test doubles for code that uses Courier.
