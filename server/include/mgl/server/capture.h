// Server-side capture: every session whose applier is made while a capture
// folder is set writes its records into FOLDER/<pid>-<n>.mglcap (one segment
// per session, docs/ARCHITECTURE.md "Capture files"). The tap sits in the
// decoder, after chunk reassembly and staging, so a capture holds the same
// bytes whatever the transport.
#pragma once

#include <memory>
#include <string>

namespace mgl::wire::capture {
class Writer;
}

namespace mgl::server {

// "" turns capture off. The default is $MOBILEGL_CAPTURE_DIR (how `mgl
// capture` reaches a server embedded in the program); `mgl server
// --capture-dir` sets it for the daemon.
void set_capture_dir(const std::string& dir);

// The writer for a new session asking for `backend`; nullptr when capture is
// off. Its file is made at the session's first record.
std::unique_ptr<wire::capture::Writer> open_session_capture(const std::string& backend);

}  // namespace mgl::server
