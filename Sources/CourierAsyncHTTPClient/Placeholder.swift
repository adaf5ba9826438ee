// The AsyncHTTPClient transport.
