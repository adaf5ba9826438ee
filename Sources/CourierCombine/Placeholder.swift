// Combine publishers for Courier calls.
