// Starts http-tests/cache-tests' origin server, listening on 127.0.0.1 only.
// Usage: CACHE_TESTS=/path/to/cache-tests npm_config_port=8000 node origin.mjs
import http from 'http'
import path from 'path'
import process from 'process'
import { pathToFileURL } from 'url'

const listen = http.Server.prototype.listen
http.Server.prototype.listen = function (port, ...rest) {
  return listen.call(this, port, '127.0.0.1', ...rest)
}
process.env.npm_config_protocol ??= 'http'
process.env.npm_config_pidfile ??= `/tmp/cache-tests-origin-${process.env.npm_config_port}.pid`
const suite = process.env.CACHE_TESTS
await import(pathToFileURL(path.join(suite, 'test-engine/server/server.mjs')))
