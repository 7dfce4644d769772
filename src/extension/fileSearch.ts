// The file search of the window lives in src/workspace (`rawp serve` uses it too).
export { LazyFileSearch } from '../workspace/lazyFileSearch';
