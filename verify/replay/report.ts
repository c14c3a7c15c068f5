import { resolveProfile, type ProfileOptions } from '../../model/profile.js'
import type { Interaction } from '../recording/format.js'
import type { Judged, ReplayOptions } from './types.js'
import type { CheckResult, Report } from '../types.js'

/**
 * A replay as a verify report (the same reporters: pretty, json, junit, markdown): one check per
 * interaction, in the group `replay`, named by its test and position.
 */
export function replayReport(options: ReplayOptions, judged: readonly Judged[], started: number): Report {
  const checks = judged.map(checkOf)
  const count = (status: CheckResult['status']) => checks.filter((check) => check.status === status).length
  const summary = { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), warnings: 0 }
  const profile = { ...options.contract.profile, ...(options.profile ?? {}) }
  return {
    baseUrl: options.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ok: summary.failed === 0,
    summary,
    ids: {},
    notes: [
      `replayed ${judged.length} recorded interactions; judged by meaning (status class, schema, filters, paging)`,
    ],
    checks,
    profile: {
      settings: {},
      resolved: resolveProfile(profile as ProfileOptions),
      detected: {},
      undetermined: {},
      observations: {},
    },
  }
}

function checkOf(judged: Judged): CheckResult {
  const { interaction } = judged
  const base = {
    id: `replay.${interaction.test ? `${interaction.test} ` : ''}#${interaction.n}`,
    group: 'replay' as const,
    kind: 'contract' as const,
    description: describeInteraction(interaction),
    warnings: [],
    notes: [],
    durationMs: 0,
  }
  if ('skipped' in judged) return { ...base, status: 'skipped', reason: judged.skipped, evidence: [] }
  return { ...base, status: judged.evidence.length ? 'failed' : 'passed', evidence: judged.evidence }
}

const describeInteraction = (interaction: Interaction): string =>
  `${interaction.method} ${interaction.path}${interaction.query ? `?${interaction.query}` : ''} as ${interaction.role}` +
  ` (the mock answered ${interaction.response.status})`
