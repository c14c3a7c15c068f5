/** An HTTP answer read once: status, headers, the text, and the text as JSON when it is JSON. */
export interface Answer {
  status: number
  headers: Headers
  text: string
  json: any
}

export async function readAnswer(res: Response): Promise<Answer> {
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}
