# club-admin: แถบสถานะ ข้อผิดพลาดของแถว บันทึกกิจกรรม และบรรทัดคำสั่ง : ภาษาไทย
#
# คีย์ต้องตรงกับ en/status.ftl และใช้ $placeholder ชุดเดียวกัน (tests/i18n.rs)

## ข้อผิดพลาดของ API (ApiError::describe)

error-unauthorised = ไม่ได้รับอนุญาต: { $why }{ $suffix }
error-auth-missing-key = ไม่ได้ส่งคีย์ API
error-auth-invalid-key = คีย์ API ถูกปฏิเสธ (ไม่รู้จัก ถูกเพิกถอน หรือหมดอายุ): ผู้ที่ตั้งค่าไว้ (ผ่าน SSH คือผู้ดูแลเซิร์ฟเวอร์) ต้องใส่คีย์ใหม่
error-auth-missing-token = ต้องเข้าสู่ระบบด้วยโทเคนก่อน
error-auth-invalid-token = เซสชันหมดอายุหรือโทเคนไม่ถูกต้อง: โปรดเข้าสู่ระบบอีกครั้ง
error-auth-unknown = ไม่ได้รับอนุญาต
error-refused = ถูกปฏิเสธ{ $suffix }
error-not-found = ไม่พบ{ $suffix }
error-unavailable = เซิร์ฟเวอร์นี้ไม่มีบริการนี้{ $suffix }
error-invalid = คำขอไม่ถูกต้อง{ $suffix }
error-conflict = ข้อมูลขัดแย้งกัน{ $suffix }
error-server = เซิร์ฟเวอร์ผิดพลาด{ $suffix }
error-timeout = หมดเวลาหลังรอ { $seconds } วินาที
error-timeout-tries = ไม่ได้คำตอบใน { $spent } วินาที: ลอง { $tries } ครั้ง ครั้งสุดท้ายหมดเวลาหลังรอ { $seconds } วินาที
error-connect = เชื่อมต่อไม่ได้: { $what }
error-connect-cause = เชื่อมต่อไม่ได้: { $what } ({ $cause })
error-connect-none = ติดต่อ { $host } ไม่ได้
error-connect-closed = { $host } ปิดการเชื่อมต่อโดยไม่ตอบ
error-connect-mid-answer = { $host } ปิดการเชื่อมต่อระหว่างส่งคำตอบ
error-decode = อ่านคำตอบไม่ได้{ $status }: { $message }{ $excerpt }
error-config = การตั้งค่าผิดพลาด: { $message }

## คำของการตัดสินและสถานะ

status-verb = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
    [add-contact] เพิ่มช่องทางติดต่อ
   *[delete] ลบ
}
status-progress = { $action ->
    [approve] กำลังอนุมัติ…
    [decline] กำลังปฏิเสธ…
    [add-contact] กำลังเพิ่มช่องทางติดต่อ…
   *[delete] กำลังลบ…
}
status-past = { $action ->
    [approve] อนุมัติแล้ว
    [decline] ปฏิเสธแล้ว
    [add-contact] เพิ่มช่องทางติดต่อแล้ว
   *[delete] ลบแล้ว
}
status-state = { $status ->
    [pending] รอพิจารณา
    [approved] อนุมัติแล้ว
    [declined] ปฏิเสธแล้ว
   *[deleted] ลบแล้ว
}
status-requests = คำขอ { $n } รายการ

## กิจกรรมบนแถบสถานะ

status-checking-token = เข้าสู่ระบบแล้ว: กำลังตรวจโทเคน…
status-refreshing = กำลังโหลดใหม่…
status-mark-all-loading = เลือกทั้งหมด: กำลังโหลดคำขอที่เหลือ โหลดแล้ว { $n } รายการ…
status-mark-all-loading-of = เลือกทั้งหมด: กำลังโหลดคำขอที่เหลือ โหลดแล้ว { $n } จาก { $total } รายการ…
status-bulk-failed = ไม่สำเร็จ { $n }
status-bulk-unknown = ไม่ทราบผล { $n } กำลังอ่านใหม่
status-held = { $action ->
    [approve] จะอนุมัติ
    [decline] จะปฏิเสธ
   *[delete] จะลบ
} { $what } { $seconds ->
    [0] รอคำตอบของคุณก่อน
   *[other] ในอีก { $seconds } วินาที
}
status-held-undo = { $key } ถอน
status-held-more = (รอส่ง { $n } รายการ)

## สิ่งที่เซิร์ฟเวอร์อนุญาต

status-cannot-decide-server = เซิร์ฟเวอร์นี้อนุมัติหรือปฏิเสธไม่ได้
status-cannot-decide-account = บัญชีนี้อนุมัติหรือปฏิเสธไม่ได้
status-cannot-decide-account-why = บัญชีนี้อนุมัติหรือปฏิเสธไม่ได้: { $detail }

## บันทึกกิจกรรม

log-earlier-session = (รอบก่อน)
log-no-answer-seen = ไม่ได้รับคำตอบ
log-what-approve = อนุมัติ
log-what-decline = ปฏิเสธ
log-what-delete = ลบ
log-what-add-contact = เพิ่มช่องทาง
log-what-sign-in = เข้าสู่ระบบ
log-what-signed-in = เข้าสู่ระบบแล้ว
log-what-start = เริ่มต้น
log-what-capability = สิทธิ์
log-what-add-ids = เพิ่มรหัส
log-what-error = ข้อผิดพลาด
log-what-notice = ข้อความ
log-title = กิจกรรม ({ $n })
log-empty = ยังไม่มีกิจกรรมในรอบนี้
log-outcome-ok = สำเร็จ
log-outcome-failed = ไม่สำเร็จ
log-outcome-unknown = ไม่ทราบผล
log-outcome-undone = ถอนแล้ว
log-outcome-sending = กำลังส่ง
log-outcome-queued = ยังไม่ได้ส่ง

## แถบสถานะ: เริ่มต้น งานในเครื่องที่ล้มเหลว เซสชัน

status-no-token = ไม่มีโทเคน: อ่านได้เฉพาะข้อมูลที่ใช้แค่คีย์ API เข้าสู่ระบบเพื่อพิจารณาคำขอ
status-in-flight = รอเซิร์ฟเวอร์ { $n } รายการ
status-calls-waiting = รอคิวส่ง { $n } รายการ
status-warning = คำเตือน: { $warning }
warning-readable-config = ไฟล์ตั้งค่าซึ่งมีคีย์ API { $path } ผู้ใช้อื่นอ่านได้ (สิทธิ์ { $mode }): สั่ง chmod 600 { $path } เพื่อให้อ่านได้เฉพาะคุณ
warning-readable-api-key = ไฟล์คีย์ API { $path } ผู้ใช้อื่นอ่านได้ (สิทธิ์ { $mode }): สั่ง chmod 600 { $path } เพื่อให้อ่านได้เฉพาะคุณ
warning-readable-token = ไฟล์โทเคน { $path } ผู้ใช้อื่นอ่านได้ (สิทธิ์ { $mode }): สั่ง chmod 600 { $path } เพื่อให้อ่านได้เฉพาะคุณ
status-effect-failed = { $what } ไม่สำเร็จ: { $error }
status-effect-saving-token = การบันทึกโทเคน
status-effect-audit-file = การเขียนไฟล์บันทึกการตรวจสอบ
status-effect-saving-queue = การบันทึกคิว
status-needs-token = ต้องเข้าสู่ระบบด้วยโทเคนก่อน
status-session-expired = เซสชันหมดอายุ: โปรดเข้าสู่ระบบอีกครั้ง
error-at-fetch-level = { $error } — ที่ระดับการดึงข้อมูล { $level }: กด { $key } เพื่อลดระดับ
log-error-id = { $error } · รหัสข้อผิดพลาด { $id }

## คำตอบ: ผู้ใช้ โทเคน ชุมนุมที่ดูแล

status-refreshed = โหลดใหม่แล้ว
status-user-failed = อ่านข้อมูลผู้ใช้ปัจจุบันไม่ได้: { $error }
status-signed-in = เข้าสู่ระบบแล้ว
status-token-refused-why = โทเคนนี้ถูกปฏิเสธ: { $detail } (HTTP 401)
status-token-refused = โทเคนนี้ถูกปฏิเสธ (HTTP 401)
status-token-check-failed = ตรวจโทเคนไม่ได้: { $error }
log-token-taken = วางโทเคนและใช้งานได้แล้ว
status-staffed-clubs-failed = หาชุมนุมที่คุณดูแลไม่ได้
status-no-staffed-clubs = คุณไม่ได้เป็นผู้ดูแลชุมนุมใด: เพิ่มรหัสคำขอด้วย i หรือ :scope <รหัสชุมนุม>

## การอ่านแถวและรายการ

status-no-listing = เซิร์ฟเวอร์นี้ไม่มีรายการคำขอ: เพิ่มรหัสคำขอด้วย i (หรือระบุเป็นอาร์กิวเมนต์)
status-queue-failed = โหลดคิวไม่ได้
status-queue-refresh-failed = โหลดคิวใหม่ไม่ได้
status-loaded = โหลดคำขอที่รอพิจารณาแล้ว { $n } รายการ
status-loaded-of = โหลดคำขอที่รอพิจารณาแล้ว { $n } จาก { $total } รายการ
status-refresh-failed = โหลดคิวใหม่ไม่ได้: { $error }
status-retrying-in = ; จะลองใหม่เองใน { $secs } วินาที
error-row-gone-elsewhere = ไม่มีบนเซิร์ฟเวอร์แล้ว (ถูกลบจากที่อื่น?)
error-row-deleted-since-read = หายไปแล้ว: ถูกลบบนเซิร์ฟเวอร์หลังจากอ่านครั้งก่อน
error-row-not-found = ไม่พบ: เซิร์ฟเวอร์ไม่มีคำขอเข้าชุมนุมที่มีรหัสนี้

## การตัดสิน: คำตอบ คำตอบที่หาย สรุปงานหลายรายการ

status-action-failed = { $action } { $label } ไม่สำเร็จ: { $error }
error-answer-lost = ส่งคำสั่ง{ $action }แล้ว แต่คำตอบหาย: ยังไม่ทราบผล กำลังอ่านใหม่
status-answer-lost = { $action } { $label }: คำตอบหาย ({ $error }) กำลังอ่านใหม่เพื่อดูผล
log-answer-lost = คำตอบหาย ({ $error }): กำลังอ่านคำขอใหม่
error-reread-failed-too = อ่านใหม่ก็ไม่สำเร็จ: { $error }
error-level-hides-status = ระดับการดึงข้อมูลนี้ไม่แสดงสถานะ
error-still-unknown = ส่งคำสั่ง{ $action }แล้ว แต่คำตอบหาย: ยังไม่ทราบผล ({ $why })
error-verdict-gone = คำขอนี้ไม่มีบนเซิร์ฟเวอร์แล้ว
error-verdict-not-deleted = ยังอยู่บนเซิร์ฟเวอร์: ไม่ได้ลบ
error-verdict-not-added = ยังไม่ได้เพิ่ม
error-verdict-still-pending = ไม่มีผล: ยังรอพิจารณาอยู่
error-verdict-now = ไม่มีผล: ตอนนี้คำขอมีสถานะ { $status }
log-answer-had-been-lost = คำตอบเคยหาย: { $error }
log-settled = ทราบผลจากการอ่านใหม่ ({ $lost }): { $outcome }
error-settled-failed = { $action } { $why } ({ $lost })
status-settled-ok = { $label }: { $outcome } (อ่านใหม่หลังคำตอบหาย)
status-settled-failed = { $action } { $label }: { $why } ({ $lost })
status-bulk-summary = { $action }: สำเร็จ { $ok } จาก { $total } รายการ
status-bulk-summary-failed = ไม่สำเร็จ { $n } รายการ (ยังเลือกไว้: กด { $key } เพื่อลองใหม่)
status-bulk-summary-unknown = ไม่ทราบผล { $n } รายการ (คำตอบหาย: กำลังอ่านใหม่)

## ค้นหาชุมนุมและช่องทางติดต่อ

status-club-type-something = พิมพ์รหัสชุมนุม หรือชื่อเพื่อค้นหา
status-bad-club-id = { $text } ไม่ใช่รหัสชุมนุมที่ถูกต้อง (UUID)
status-no-club-search = เซิร์ฟเวอร์นี้ค้นหาชุมนุมด้วยชื่อไม่ได้: ใส่รหัสชุมนุม
status-club-first = ค้นหาชุมนุมก่อน ({ $key })
status-adding-contact = กำลังเพิ่มช่องทางติดต่อ…
status-club-shown = ชุมนุม: { $name }
status-no-club = ไม่มีชุมนุมรหัส { $id }
status-clubs-found = { $n ->
    [0] ไม่พบชุมนุมชื่อนี้: ลองชื่ออื่นหรือรหัสชุมนุม
   *[other] พบ { $n } ชุมนุม: j/k แล้ว Enter เพื่อเปิด
}
status-contact-added = เพิ่มช่องทางติดต่อแล้ว: { $contact }
status-contact-not-added = เพิ่มช่องทางติดต่อไม่สำเร็จ: { $error }

## การตัดสิน

status-queue-empty = คิวว่าง: เพิ่มรหัสคำขอด้วย i
status-cannot-act = { $action } { $label } ไม่ได้: { $why }
status-why-already-acting = { $progress } อยู่แล้ว
status-why-deleted = ถูกลบไปแล้ว
status-why-gone = เซิร์ฟเวอร์ไม่รู้จักคำขอนี้
status-why-already = คำขอนี้{ $status }
status-why-cannot-change = เปลี่ยนไม่ได้
status-why-not-read = ยังไม่ได้อ่านสถานะ (กำลังอ่าน กดอีกครั้งเมื่อขึ้นว่ารอพิจารณา)
status-already-changing = คำขอนี้กำลังถูกเปลี่ยนหรือลบอยู่แล้ว
status-nothing-to-do = ไม่มีอะไรต้องทำ: คำขอเหล่านั้นไม่ได้รอพิจารณาแล้ว
status-confirm-closed = { $label }: { $why } จึงปิดหน้าต่างยืนยันแล้ว ไม่ได้ส่งอะไร
status-unread-left-out = ยังไม่ได้ส่ง: ยังไม่ได้อ่านสถานะของคำขอ { $n } รายการ (กำลังอ่าน กดอีกครั้งเมื่อขึ้นว่ารอพิจารณา)
status-decision-refused-here = { $action }ไม่ได้: { $why } (ไม่ได้ส่งอะไรไป)
status-nothing-to-undo = ไม่มีอะไรให้ถอน: ไม่มีการอนุมัติ/ปฏิเสธที่รอส่ง (ที่ส่งไปแล้วถอนไม่ได้)
status-taken-back = ถอนการ{ $action } { $what } แล้ว: กลับไปรอพิจารณา ไม่ได้ส่งอะไรไป
status-sending-held = กำลังส่งการอนุมัติ/ปฏิเสธที่รออยู่: จะออกเมื่อเซิร์ฟเวอร์ตอบแล้ว (กด q q เพื่อออกทันที)
log-why-undone = ถอน (z) ก่อนส่ง
log-why-force-quit = บังคับออกก่อนส่ง
log-why-ended-queued = ไม่ได้ส่ง: ปิดแดชบอร์ดก่อนถึงคิว
log-why-server-stopped = ไม่ได้ส่ง: เซิร์ฟเวอร์หยุดทำงาน
log-why-discarded = ทิ้งไปตอนออกก่อนส่ง
log-why-discarded-resume = ทิ้งหลังกลับจากการพักโปรแกรม ก่อนส่ง
status-full-text = { $key }: ข้อความเต็ม
status-held-discarded = ทิ้งการอนุมัติ/ปฏิเสธ { $n } รายการแล้ว ไม่ได้ส่ง
status-held-again = รอต่อแล้ว: เริ่มนับเวลารอใหม่ (z ยกเลิกรายการล่าสุดได้)

## ปุ่มลัด

status-quit-armed = ยังมี { $n } รายการรอเซิร์ฟเวอร์ตอบ: กด q อีกครั้งเพื่อออกเลย
status-read-only = โหมดอ่านอย่างเดียว: เปลี่ยนแปลงอะไรไม่ได้ (เริ่มด้วย --read-only)
status-sorted = เรียงตาม: { $sort ->
    [age] เก่าสุดก่อน
    [club] ชุมนุม
    [status] สถานะ
   *[server] ลำดับของเซิร์ฟเวอร์
}
status-marks-cleared = ยกเลิกการเลือกทั้งหมดแล้ว
status-marked = เลือกแล้ว { $n } รายการ
status-club-level = ระดับการดึงข้อมูลชุมนุม: { $level }
status-student-level = ข้อมูลนักเรียนอยู่ที่ระดับย่อ: บริการไม่ให้บัญชีนักเรียนดึงข้อมูลมากกว่านี้
status-request-level = ระดับการดึงข้อมูลคำขอ: ปกติ นักเรียนและชุมนุม: { $level } กำลังโหลดใหม่…
status-copied = คัดลอกรหัส { $n } รายการไปยังคลิปบอร์ดแล้ว
status-busy-row = { $label }: กำลังอ่านหรือเปลี่ยนแปลงอยู่แล้ว
status-reading-row = กำลังอ่าน { $label }…
status-mark-all-stopped = หยุดเลือกทั้งหมด: โหลดคำขอที่เหลือไม่ได้ ยังไม่ได้เลือกอะไร (กด * เพื่อลองใหม่)
status-marked-every = เลือกแล้ว { $n } รายการ: คำขอที่รอพิจารณาทั้งหมดที่ตรงกับตัวกรอง
status-marked-every-of = เลือกแล้ว { $n } รายการ: คำขอที่รอพิจารณาทั้งหมดของ { $club } ที่ตรงกับตัวกรอง
status-marked-some = เลือกแล้ว { $n } รายการที่ตรงกับตัวกรอง (เลือกไว้ทั้งหมด { $all } รายการ)
status-marked-some-of = เลือกแล้ว { $n } รายการของ { $club } ที่ตรงกับตัวกรอง (เลือกไว้ทั้งหมด { $all } รายการ)
status-clubs-changed = ชุมนุมของคุณเปลี่ยนไปตั้งแต่ครั้งก่อน: กำลังแสดงรายการใหม่
status-clubs-changed-dropped = ชุมนุมของคุณเปลี่ยนไปตั้งแต่ครั้งก่อน: นำคำขอของชุมนุมอื่น { $n } รายการออกจากคิวแล้ว

## รหัสที่เพิ่มเอง คิวที่บันทึกไว้

status-ids-added = เพิ่มรหัสคำขอ { $n } รายการจาก { $origin }
status-ids-skipped = ข้าม { $n } รายการที่ไม่ใช่ UUID ({ $ids })
status-ids-already = มีอยู่ในคิวแล้ว { $n } รายการ
status-ids-hidden = ตัวกรอง /{ $filter } ซ่อนคำขอที่เพิ่ม { $n } รายการ: { $key } ล้างตัวกรอง
status-filter-cleared = ล้างตัวกรองแล้ว แสดงคำขอทั้งหมด
status-filter-applied = ตัวกรอง { $filter }: แสดง { $shown } จาก { $total } รายการ
log-ids-from = รหัส { $n } รายการจาก { $origin }
log-ids-never-sent = ไม่ใช่รหัสคำขอเข้าชุมนุม ไม่ได้ส่งไป: { $ids }
status-origin-paste = การวาง
status-origin-dialog = ช่องเพิ่มรหัส (i)
status-origin-command = คำสั่ง :add
status-origin-arguments = บรรทัดคำสั่ง
status-origin-stdin = อินพุตมาตรฐาน
status-restored-ids = คืนค่าจากรอบก่อน: รหัสคำขอ { $n } รายการ
status-restored-filter = คืนค่าจากรอบก่อน: ตัวกรอง /{ $filter } (กด / เพื่อเปลี่ยน)
status-restored-both = คืนค่าจากรอบก่อน: รหัสคำขอ { $n } รายการ และตัวกรอง /{ $filter } (กด / เพื่อเปลี่ยน)

## บรรทัดคำสั่ง :

command-help-add = add รหัส… — เพิ่มรหัสคำขอเข้าคิว
command-help-club = club รหัส|ชื่อ — ค้นหาชุมนุมด้วยรหัสหรือชื่อ
command-help-scope = scope mine|all|ชุมนุม — เลือกว่ารายการจะแสดงคำขอใด
command-help-level = level ระดับ [ระดับย่อย] — ระดับการดึงข้อมูลของคำขอ [และของนักเรียนกับชุมนุม]
command-help-club-level = club-level ระดับ — ระดับการดึงข้อมูลของช่องชุมนุม
command-help-filter = filter ข้อความ — กรองคิว (status: club: year: หรือข้อความใดก็ได้)
command-help-sort = sort age|club|status|server — เรียงคิว
command-help-signin = signin — เข้าสู่ระบบ (วางโทเคน)
command-help-mouse = mouse on|off — เปิดหรือปิดเมาส์
command-help-refresh = refresh — โหลดคิวใหม่จากเซิร์ฟเวอร์
command-help-clear-done = clear-done — นำคำขอที่ตัดสินแล้วหรือลบแล้วออกจากคิว
command-help-log = log — แสดงหรือซ่อนบันทึกกิจกรรม
command-help-quit = quit — ออก (quit! ออกทันที)
command-mouse-usage = mouse ใช้ได้กับ on หรือ off (ไม่ใช่ { $given })
command-mouse-on = เปิดเมาส์แล้ว
command-mouse-off = ปิดเมาส์แล้ว
command-cleared = นำคำขอที่ตัดสินแล้วหรือลบแล้ว { $n } รายการออกจากคิว
command-log-shown = แสดงบันทึกกิจกรรมแล้ว (กด L หรือ :log เพื่อซ่อน)
command-log-hidden = ซ่อนบันทึกกิจกรรมแล้ว
command-unknown = ไม่รู้จักคำสั่ง { $given }: ลอง { $names }
command-sort-usage = sort ใช้ได้กับ age, club, status หรือ server
command-club-level-usage = club-level ต้องตามด้วยระดับการดึงข้อมูล: id_only, compact, default หรือ detailed
command-unknown-level = ไม่รู้จักระดับการดึงข้อมูล { $given }: ใช้ id_only, compact, default หรือ detailed
command-level-set = ระดับการดึงข้อมูลคำขอ { $level } / ระดับย่อย { $descendants }
command-level-usage = level ต้องตามด้วยระดับการดึงข้อมูลหนึ่งหรือสองระดับ
command-scope-usage = scope ใช้ได้กับ mine, all รหัสชุมนุม หรือชื่อชุมนุม
command-scope-no-club = ไม่รู้จักชุมนุมชื่อ "{ $name }" ที่นี่ (:club { $name } ค้นหาได้ และ :scope รับรหัสชุมนุมด้วย)
command-scope-several = มีหลายชุมนุมชื่อ "{ $name }": { $clubs } ใส่ชื่อให้ยาวขึ้นหรือใช้รหัส
status-unknown-reread = คำตอบของคำสั่ง{ $action } { $label } หายไป: กำลังอ่านใหม่แทนการส่งซ้ำ
status-rereading-unknown = ไม่ได้ส่งอะไร: คำตอบของคำสั่งก่อนหน้า { $n } รายการหายไป กำลังอ่านใหม่
status-bulk-rate = { $n } รายการ/วินาที
status-bulk-server-slow = เซิร์ฟเวอร์ช้า: ส่งทีละน้อยลง
status-bulk-paused = หยุดรอ: ติดต่อบริการไม่ได้ รอส่ง { $n } รายการ
status-quit-waits-unknown = จะออกเมื่อคำตอบที่หายไป { $n } รายการอ่านใหม่จนทราบผลแล้ว (Ctrl-C ออกทันที)
status-quit-not-applied = ยังไม่ออก: คำสั่ง { $n } รายการไม่สำเร็จ (ดูเหตุผลที่แถว) กด q เพื่อออก
ssh-refused-exec = เซิร์ฟเวอร์นี้ปิดการรับคำสั่ง (ผู้ดูแลตั้ง exec = false): เชื่อมต่อโดยไม่ระบุคำสั่งเพื่อเปิดแดชบอร์ด
ssh-refused-subsystem = ที่นี่ไม่รับซับซิสเต็ม { $name } (ไม่มี sftp ไม่มีการโอนไฟล์): เซิร์ฟเวอร์นี้ให้บริการแดชบอร์ดเท่านั้น
ssh-needs-terminal = แดชบอร์ดต้องใช้เทอร์มินัล: เชื่อมต่อด้วย ssh -t
ssh-full-total = เซิร์ฟเวอร์เปิดแดชบอร์ดไว้ { $n } หน้าจอ เต็มแล้ว: ลองใหม่ภายหลัง
ssh-full-key = กุญแจนี้เปิดแดชบอร์ดไว้ { $n } หน้าจอ เต็มแล้ว: ออกจากหน้าจอหนึ่งก่อน
ssh-full-total-runs = เซิร์ฟเวอร์มีแดชบอร์ดและคำสั่งที่ทำงานอยู่ { $n } รายการ เต็มแล้ว: ลองใหม่ภายหลัง
ssh-full-key-runs = กุญแจนี้มีแดชบอร์ดและคำสั่งที่ทำงานอยู่ { $n } รายการ เต็มแล้ว: รอให้คำสั่งหนึ่งจบหรือออกจากแดชบอร์ดหนึ่งก่อน
ssh-busy-key = กุญแจนี้เปิดการเชื่อมต่อไว้ { $n } รายการ เต็มแล้ว (ทั้งแดชบอร์ด คำสั่ง และการเชื่อมต่อที่ไม่ได้ใช้ เช่น ssh -N หรือ ssh ที่หยุดไว้): ปิดหนึ่งรายการแล้วลองใหม่
ssh-busy-total = เซิร์ฟเวอร์มีการเชื่อมต่อ { $n } รายการ เต็มแล้ว: ลองใหม่ในอีกหนึ่งนาที
ssh-no-terminal-key = กุญแจนี้ใช้ได้เฉพาะคำสั่ง (no-pty หรือ restrict ใน authorized keys ของเซิร์ฟเวอร์): ระบุคำสั่ง เช่น ssh HOST requests list
ssh-earlier-ended = เซสชันก่อนหน้าของคุณเพิ่งสิ้นสุด: เชื่อมต่อใหม่เพื่อเริ่มเซสชันใหม่
ssh-session-failed = เซสชันนี้หยุดเพราะข้อผิดพลาดภายใน (ดูบันทึกของเซิร์ฟเวอร์) เซสชันอื่นไม่ได้รับผลกระทบ
ssh-idle = ไม่มีการกดแป้นนาน { $idle }: ตัดการเชื่อมต่อแล้ว แดชบอร์ดของคุณจะรออยู่ { $wait }: เชื่อมต่อใหม่ด้วยกุญแจเดิม
ssh-seconds = { $n } วินาที
ssh-minutes = { $n } นาที
status-too-small-key-ignored = ไม่รับปุ่มนี้: หน้าต่างนี้ ({ $width }x{ $height }) เล็กเกินกว่าจะแสดงคิว ขยายหน้าต่าง หรือกด q เพื่อออก
status-too-small-quit-waiting = ยังมีการตัดสิน { $n } รายการที่รอส่งหรือรอคำตอบ: ขยายหน้าต่างเพื่อดู (Ctrl-C ออกทันทีและไม่ส่งการตัดสินที่พักไว้)

# เข้าสู่ระบบเมื่อขอเท่านั้น เซสชันหมดอายุ บัญชีใหม่
status-no-token-press = ไม่มีโทเคน: กด { $key } เพื่อเข้าสู่ระบบ (อ่านได้เฉพาะข้อมูลที่ใช้แค่คีย์ API)
status-needs-token-press = ต้องเข้าสู่ระบบด้วยโทเคนก่อน: กด { $key } เพื่อเข้าสู่ระบบ
status-session-expired-press = เซสชันหมดอายุ: กด { $key } เพื่อเข้าสู่ระบบ จะไม่มีการส่งใดๆ จนกว่าจะเข้าสู่ระบบ
status-session-expired-held = เซสชันหมดอายุ: กด { $key } เพื่อเข้าสู่ระบบ การตัดสินที่พักไว้ { $n } รายการรออยู่
status-sign-in-first = { $action }: เข้าสู่ระบบก่อน (กด { $key }) ยังไม่ได้ส่งอะไร
status-held-sign-in = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
} { $what } พักไว้จนกว่าจะเข้าสู่ระบบ ({ $key }){ $n ->
    [one] {""}
   *[other] {" "}(พักไว้ { $n } รายการ)
}
status-held-other-account = มีบัญชีอื่นเข้าสู่ระบบ: ไม่ส่งการตัดสินที่พักไว้ของบัญชีก่อน { $n } รายการ
status-quit-waits-sign-in = กด { $key } เพื่อเข้าสู่ระบบ: จะส่งการตัดสินที่พักไว้ { $n } รายการ แล้วจึงออก (Ctrl-C ออกโดยไม่ส่ง)
log-why-session-expired = ไม่ได้ส่ง: เซสชันหมดอายุ
log-why-other-account = ไม่ได้ส่ง: มีบัญชีอื่นเข้าสู่ระบบ
status-delete-not-allowed = ลบ: เซิร์ฟเวอร์ให้ลบได้เฉพาะนักเรียนเจ้าของคำขอ (หรือผู้ดูแลระบบ) ยังไม่ได้ส่งอะไร
status-sort-all-loading = กำลังเรียงแบบ { $order }: โหลดคำขอที่เหลือ โหลดแล้ว { $n } รายการ…
status-sort-all-loading-of = กำลังเรียงแบบ { $order }: โหลดคำขอที่เหลือ โหลดแล้ว { $n } จาก { $total } รายการ…
status-sort-all-done = เรียงแบบ { $order } แล้ว: คำขอที่รอพิจารณาทั้งหมด { $n } รายการ
status-sort-all-capped = เรียงแบบ { $order } แล้ว: เฉพาะ { $n } รายการแรก (การเรียงโหลดได้สูงสุด { $cap } รายการ)
status-sort-all-stopped = เรียง: โหลดคิวบางหน้าไม่ได้ เรียงเฉพาะแถวที่โหลดแล้ว
status-already-same = { $label }: { $status }โดยผู้อื่น (ไม่ต้องทำอะไร)
status-already-conflict = { $label }: ขัดกัน: ผู้อื่น{ $status } การ{ $action }ของคุณจึงไม่มีผล
error-already-conflict = ขัดกัน: ผู้อื่น{ $status } การ{ $action }ของคุณจึงไม่มีผล
status-bulk-summary-already = { $status }โดยผู้อื่น { $n } รายการ
status-bulk-summary-conflicts = ขัดกัน { $n } รายการ (ผู้อื่นตัดสินไปอีกทาง: ไม่มีผล)
log-outcome-already = มีผู้อื่นทำแล้ว
log-outcome-conflict = ขัดกัน
# Applied, then overwritten by a later decision the server also accepted.
log-outcome-overwritten = ถูกเขียนทับ
# Never sent: the dashboard or the server stopped before its turn (nobody took it back).
log-outcome-not-sent = ไม่ได้ส่ง: หยุดก่อน
# The command line (requests approve, decline, delete; clubs contact add): Ctrl-C before the write went out.
cli-interrupted-nothing-sent = หยุดแล้ว: ยังไม่ได้ส่งอะไรออกไป ไม่มีอะไรเปลี่ยนบนเซิร์ฟเวอร์
cli-time-limit-nothing-sent = เกินเวลาที่เซิร์ฟเวอร์นี้กำหนด: ยังไม่ได้ส่งอะไรออกไป ไม่มีอะไรเปลี่ยนบนเซิร์ฟเวอร์
# A 2xx answer that is not the club service's envelope (api_version and data): a wrong base URL. $status: " (HTTP 200)"; $excerpt: " [start of the page]" or empty.
error-not-the-service = เซิร์ฟเวอร์นี้ไม่ใช่บริการชุมนุม: คำตอบ{ $status } ไม่ใช่ของบริการ (ไม่มี api_version และ data): ตรวจที่อยู่เซิร์ฟเวอร์ (base URL){ $excerpt }
# The activity log's line of a start-up warning: "warning  secret file check failed: <warning-readable-*>".
log-what-warning = คำเตือน
log-warning-check = ตรวจสิทธิ์ไฟล์ลับ
status-new-requests = มีคำขอใหม่ { $n } รายการในคิว (ทำเครื่องหมายว่าใหม่)
status-decided-elsewhere = มีผู้อื่นตัดสินคำขอ { $n } รายการไปแล้วระหว่างนี้ (เลิกเลือกแล้ว)

# A call whose task failed inside the program (a bug): the call is answered with this.
error-internal = ไคลเอนต์ขัดข้องภายในโปรแกรม
error-not-sent = ไม่ได้ส่ง: { $why }
log-write-waits = { $error }: คำสั่งนี้ยังไม่ถึงเซิร์ฟเวอร์ จะส่งเองเมื่อบริการตอบอีกครั้ง
error-no-answer = ไม่ได้รับคำตอบ: { $why }
# ถ้อยคำของโปรแกรมเองในสองข้อความข้างบน (api::error::why)
why-run-ended = งานที่ส่งคำสั่งนี้จบลงก่อนได้รับคำตอบ
why-left-before-answer = ออกไปก่อนที่เซิร์ฟเวอร์จะตอบ โปรดตรวจสถานะของคำขอ
why-calls-ended = การเรียกของไคลเอนต์จบลงก่อนได้รับคำตอบ
why-dashboard-ending = แดชบอร์ดกำลังปิด (สายหลุดหรือถูกหยุด) ก่อนส่งคำสั่งนี้
why-server-stopped = เซิร์ฟเวอร์หยุดทำงาน
why-audit-not-written = เขียนบรรทัดในไฟล์บันทึกการตรวจสอบก่อนส่งไม่ได้
others-someone = ผู้อื่น
others-holding = { $by } กำลังจะ{ $verb }ในอีกเซสชันหนึ่ง (พักไว้ ยังไม่ได้ส่ง)
status-heard-decided = { $label }: { $status }โดย { $by } (อีกเซสชันหนึ่ง)
status-heard-decided-unmarked = { $label }: { $status }โดย { $by } (อีกเซสชันหนึ่ง) เลิกเลือกแล้ว
status-copied-address = คัดลอกที่อยู่เข้าสู่ระบบแล้ว: { $url }
status-already-same-by = { $label }: { $status }โดย { $by } แล้ว (ไม่ต้องทำอะไร)
status-already-conflict-by = { $label }: ขัดกัน: { $by } { $status }ไปแล้ว การ{ $action }ของคุณจึงไม่มีผล
status-decided-elsewhere-plain = มีผู้อื่นตัดสินคำขอ { $n } รายการไปแล้วระหว่างนี้
status-interrupted-reading = { $n } รายการจากการทำงานที่ถูกขัดจังหวะ: กำลังอ่านใหม่เพื่อดูผล
status-interrupted-settled = { $n } รายการจากการทำงานที่ถูกขัดจังหวะ: { $outcomes }
status-contact-settling = ช่องทางติดต่อล่าสุดของชุมนุมนี้ยังตรวจสอบไม่เสร็จ (คำตอบหาย): รอสักครู่
status-contact-lost-not-added = ยังไม่ได้เพิ่มช่องทางติดต่อ { $contact } (คำตอบหาย อ่านชุมนุมใหม่แล้วไม่พบ): เพิ่มใหม่ได้

## Who may do what (ops::permit; api-notes.md, "Who may do what")

permit-not-student-decide = ครูและผู้ดูแลระบบตรวจดูได้ ผู้ตัดสินคือนักเรียนผู้ดูแลชุมนุมเท่านั้น
permit-not-student-delete = ลบคำขอได้เฉพาะนักเรียนเจ้าของคำขอเท่านั้น
permit-not-student-contact = เพิ่มช่องทางติดต่อได้เฉพาะนักเรียนผู้ดูแลชุมนุม
permit-not-staff-decide = ตัดสินคำขอได้เฉพาะนักเรียนผู้ดูแลชุมนุมนั้น
permit-not-staff-contact = เพิ่มช่องทางติดต่อได้เฉพาะนักเรียนผู้ดูแลชุมนุมนั้น
permit-not-own = นักเรียนลบได้เฉพาะคำขอของตนเอง
permit-refused = { $action }: { $why } ไม่ได้ส่งอะไรไป
header-review-only = ตรวจดูเท่านั้น: { $why }
header-review-only-short = ตรวจดูเท่านั้น

## A bulk's summary in few words, for a narrow status line (the counts whole)

status-bulk-summary-short = { $action } สำเร็จ { $ok }/{ $total }
status-bulk-summary-already-short = ผู้อื่นทำแล้ว { $n }
status-bulk-summary-conflicts-short = ขัดกัน { $n }
status-bulk-summary-failed-short = ไม่สำเร็จ { $n }
status-bulk-summary-unknown-short = ไม่ทราบผล { $n }
# A decision of this dashboard the server applied, then overwrote: a later read shows the
# other status ($status, in words). $action: approve or decline (code).
status-overwritten = การ{ $action ->
    [approve] อนุมัติ
   *[decline] ปฏิเสธ
}ของคุณ { $label } ถูกเขียนทับ: ตอนนี้{ $status }
