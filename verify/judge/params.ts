import type { ApiRoute } from '../../model/api/routes.js'
import { pathReader, queryReader, validateParams, type ParamSource } from '../../fastapi/http/params.js'
import { QueryParams } from '../../fastapi/http/query-string.js'
import type { Profile } from '../../model/profile.js'
import type { JudgeInput, ReadRequest } from './types.js'

/**
 * The request's path and query parameters read exactly as the imagined FastAPI server reads them (Starlette's
 * query parsing, pydantic's lax parsing in the profile's dialect: `is_preset=yes`, repeated `intents`, the
 * profile's rules paging names and defaults), so the judge reads an answer against what the server was asked.
 * @returns undefined when the server should have refused the request (422): a server that is laxer there keeps
 * the app working, and what its answer should hold is then unknown.
 */
export function readParams(
  route: ApiRoute,
  path: Record<string, string>,
  exchange: JudgeInput,
  profile: Profile,
): ReadRequest | undefined {
  const groups: ParamSource[] = []
  if (route.request.path) groups.push({ source: 'path', schema: route.request.path, read: pathReader(path) })
  const query = route.request.query?.(profile)
  if (query) groups.push({ source: 'query', schema: query, read: queryReader(new QueryParams(exchange.query)) })
  const { values, errors } = validateParams(groups, profile)
  if (errors.length) return undefined
  return { params: values, query: exchange.query, requestBody: exchange.requestBody }
}
