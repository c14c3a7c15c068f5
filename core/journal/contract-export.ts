import { pactOf, type PactFile, type PactValues } from '../../verify/recording/pact.js'
import type { RecordedContract } from '../../verify/recording/format.js'
import { referenceTable } from '../../verify/recording/references.js'
import type { Profile } from '../../model/profile.js'
import type { MockInstance } from '../instance/instance.js'

/** The formats a recorded contract is written in: the contract itself, or a Pact v4 file of it. */
export const CONTRACT_FORMATS = ['contract', 'pact'] as const
export type ContractFormat = (typeof CONTRACT_FORMATS)[number]

/** The instance's recorded contract, in a format (`served`: the OpenAPI document the mock serves, if any). */
export async function exportContract(
  instance: MockInstance,
  profile: Profile,
  format: ContractFormat = 'contract',
  served?: object,
): Promise<RecordedContract | PactFile> {
  const contract = await instance.recorder.contract(profile)
  return format === 'pact' ? pactOf(contract, pactValues(instance), served) : contract
}

/** The ids and tokens of this world, for a Pact file verified against it (a standalone mock of the same seed). */
function pactValues(instance: MockInstance): PactValues {
  const ids = new Map([...referenceTable(instance.world.referenced())].map(([id, name]) => [name, id]))
  const tokens: Record<string, string> = { ...instance.fixtures.tokens }
  return { reference: (name) => ids.get(name), token: (role) => (role === 'expired' ? undefined : tokens[role]) }
}
