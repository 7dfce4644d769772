// Why a tool call failed, in Korean, by its error code: the built-in agent's Korean sentence about a
// failure leads with this, and gives the tool's own words (English, with the paths and names that
// matter) after it. Before, a Korean reply read "`a.txt` 파일 고치기에 실패했습니다 (FS_STALE_VERSION):
// "a.txt" changed since it was read…": a person had to read English to learn what went wrong.
// A code not listed here keeps the old sentence (code and the tool's words).
const REASONS: ReadonlyMap<string, string> = new Map([
  ['FS_NOT_FOUND', '파일이나 폴더가 없습니다.'],
  ['FS_NOT_OBSERVED', '이 세션에서 아직 읽지 않은 파일이라 고치지 않았습니다. 먼저 읽어야 합니다.'],
  ['FS_STALE_VERSION', '읽은 뒤에 파일이 바뀌었거나 지워져서 아무것도 쓰지 않았습니다. 다시 읽은 다음 고쳐야 합니다.'],
  ['FS_EXISTS', '이미 있는 파일인데 이 세션에서 읽지 않아 덮어쓰지 않았습니다.'],
  ['FS_AMBIGUOUS_EDIT', '바꿀 문자열이 파일에 여러 번 나옵니다. 더 길게 적어 한 곳만 가리키거나 모두 바꾸기를 써야 합니다.'],
  ['FS_EDIT_NOT_FOUND', '바꿀 문자열을 파일에서 찾지 못했습니다.'],
  ['FS_IS_DIRECTORY', '파일이 아니라 폴더입니다.'],
  ['FS_NOT_TEXT', '텍스트 파일이 아니어서(바이너리이거나 UTF-8이 아님) 손대지 않았습니다.'],
  ['FS_OUTSIDE_WORKSPACE', '작업 폴더 밖을 가리키는 경로라 거절했습니다.'],
  ['FS_PERMISSION', '운영체제가 이 파일에 대한 접근을 허락하지 않았습니다.'],
  ['FS_IO', '파일을 읽거나 쓰는 중에 오류가 났습니다.'],
  ['PERMISSION_REJECTED', '권한 요청이 거절되었습니다.'],
  ['PERMISSION_TIMEOUT', '권한 요청에 제때 답이 오지 않았습니다.'],
  ['PERMISSION_CANCELLED', '권한 요청이 취소되었습니다.'],
  ['TOOL_NOT_ALLOWED', '여기서는 쓸 수 없는 도구입니다.'],
  ['TOOL_NOT_ALLOWED_IN_MODE', '지금 모드에서는 쓸 수 없는 도구입니다.'],
  ['TOOL_DENIED', '이 요청에서는 허용되지 않은 도구입니다.'],
  ['INVALID_INPUT', '도구에 넘긴 입력이 올바르지 않습니다.'],
]);

/** The Korean reason for `code`, or undefined when there is none. */
export function failureReasonKo(code: string | undefined): string | undefined {
  return code === undefined ? undefined : REASONS.get(code);
}
