// @ts-check
/**
 * The baseline of `npm run bench`: a bare Express 5 app serving the same seeded data from
 * plain arrays with a per-team index, with no auth, no validation and no FastAPI fidelity.
 * It is what "doing the paging for real" costs at the least; the mock is measured against it.
 * Usage: node scripts/bench/baseline-server.mjs <personasPerTeam>   (prints "READY <url>")
 */
import express from 'express'
import { createWorld } from '../../dist/handlers/index.js'

const personasPerTeam = Number(process.argv[2] ?? 10_000)
const world = await createWorld({ seed: 1, personasPerTeam })
const byTeam = new Map()
for (const persona of world.personas.all()) {
  if (!byTeam.has(persona.team_id)) byTeam.set(persona.team_id, [])
  byTeam.get(persona.team_id).push({ ...persona })
}
for (const list of byTeam.values()) list.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
const rulesByPolicy = new Map()
for (const rule of world.rules.all()) {
  if (!rulesByPolicy.has(rule.policy_id)) rulesByPolicy.set(rule.policy_id, [])
  rulesByPolicy.get(rule.policy_id).push({ ...rule })
}
const values = []

const app = express()
app.use(express.json({ limit: '1mb' }))
app.get('/v1/personas/', (req, res) => {
  const all = byTeam.get(String(req.query.team_id)) ?? []
  const intents = req.query.intents ? [req.query.intents].flat().map(String) : undefined
  const search = req.query.search ? String(req.query.search).toLowerCase() : undefined
  const matches =
    intents || search
      ? all.filter(
          (p) =>
            (!intents || intents.includes(p.intent)) &&
            (!search || [p.name, p.description ?? '', p.role].some((f) => f.toLowerCase().includes(search))),
        )
      : all
  const offset = Number(req.query.offset ?? 0)
  const limit = Number(req.query.limit ?? 10)
  res.json({ results: matches.slice(offset, offset + limit), total: matches.length })
})
app.get('/v1/policies/:id/rules', (req, res) => {
  const rules = rulesByPolicy.get(req.params.id) ?? []
  const offset = Number(req.query.offset ?? 0)
  const limit = Number(req.query.limit ?? 100)
  res.json({ results: rules.slice(offset, offset + limit), total: rules.length })
})
app.post('/v1/demographics/:id/values/bulk', (req, res) => {
  const created = req.body.values.map((item, index) => ({
    id: crypto.randomUUID(),
    dimension_id: req.params.id,
    value: item.value,
    created_at: 0,
    display_name: item.display_name ?? item.value,
    value_metadata: item.metadata ?? {},
    sort_order: values.length + index,
  }))
  values.push(...created)
  res.status(201).json(created)
})
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
})
