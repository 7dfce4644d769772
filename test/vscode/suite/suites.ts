// Every suite of the extension-host tests, in the order they run.
import './activation.test';
import './webview.test';
import './fsBackend.test';
import './fsBackendSymlink.test';
import './fsBackendContract.test';
import './settings.test';
import './sessions.test';
import './sharing.test';
import './editor.test';
import './virtualFolder.test';
import './folderListing.test';
import './checkpoints.test';
