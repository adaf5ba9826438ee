// Runs http-tests/cache-tests' private-cache profile (the tests a browser cache runs: no `cdn_only`, no
// `browser_skip`, with `browser_only`) against a cache at BASE, as its CLI does, and prints the score the suite's
// own result rules give (`kind` required / optimal / check, dependencies honoured).
// Usage: CACHE_TESTS=/path/to/cache-tests BASE=http://127.0.0.1:8001 node score.mjs [--json out.json] [--verbose]
import fs from 'fs'
import path from 'path'
import process from 'process'
import { pathToFileURL } from 'url'

const suite = process.env.CACHE_TESTS
const load = file => import(pathToFileURL(path.join(suite, file)))
const { default: tests } = await load('tests/index.mjs')
const config = await load('test-engine/client/config.mjs')
const { makeTest, testResults } = await load('test-engine/client/test.mjs')
const { determineTestResult, resultTypes } = await load('test-engine/lib/results.mjs')

config.setBaseUrl(process.env.BASE)
config.setUseBrowserCache(false)
// As the CLI does for proxies, every request carries `Pragma: foo` and `Cache-Control: nothing-to-see-here` (so that
// Node's fetch keeps no cache of its own). The two browser-only requests in the `no-cache` fetch mode reach the
// cache as a browser sends them to the network: `Cache-Control: max-age=0` instead.
const fetch = globalThis.fetch
globalThis.fetch = (url, init) => {
  if (init?.cache === 'no-cache') {
    init = { ...init, cache: 'no-store' }
    init.headers = init.headers.filter(([name, value]) => !(name === 'Cache-Control' && value === 'nothing-to-see-here'))
    init.headers.push(['Cache-Control', 'max-age=0'])
  }
  return fetch(url, init)
}
const selected = []
for (const testSuite of tests) {
  for (const test of testSuite.tests) {
    if (test.cdn_only === true || test.browser_skip === true) continue
    if (process.env.ID && test.id !== process.env.ID) continue
    if (process.env.ID) test.dump = true
    selected.push(test)
  }
}
for (let index = 0; index < selected.length; index += 25) {
  await Promise.all(selected.slice(index, index + 25).map(makeTest))
}

const counts = { required: [0, 0], optimal: [0, 0], check: [0, 0] }
const failures = []
for (const test of selected) {
  const kind = test.kind ?? 'required'
  const result = determineTestResult(tests, test.id, testResults)
  const passed = result === resultTypes.pass || result === resultTypes.yes
  counts[kind][1] += 1
  if (passed) counts[kind][0] += 1
  if (!passed && kind !== 'check') failures.push(`${kind} ${result[2]} ${test.id}: ${JSON.stringify(testResults[test.id])}`)
}
if (process.argv.includes('--json')) {
  fs.writeFileSync(process.argv[process.argv.indexOf('--json') + 1], JSON.stringify(testResults, null, 2))
}
if (process.argv.includes('--verbose')) failures.forEach(line => console.log(line))
console.log(`required ${counts.required[0]}/${counts.required[1]}, optimal ${counts.optimal[0]}/${counts.optimal[1]}, ` +
  `check yes ${counts.check[0]}/${counts.check[1]}`)
