# club-admin panes, Thai (ภาษาไทย): header, queue, detail, club lookup, and the words of rows
# and membership statuses. Same keys and $placeholders as en/panes.ftl (tests/i18n.rs checks).
# Field names of the detail and club panes are at most 8 columns wide (Thai vowel and tone
# marks take no column).

## Header and the footer's read-only mark

header-no-email = (ไม่มีอีเมล)
header-role = { $role ->
    [student] นักเรียน
    [teacher] ครู
    [organization] องค์กร
    [staff] เจ้าหน้าที่
   *[management] ฝ่ายบริหาร
}
header-role-admin = แอดมิน
header-role-not-onboarded = ยังไม่ลงทะเบียน
header-signing-in = กำลังเข้าสู่ระบบ…
header-not-signed-in = ยังไม่ได้เข้าสู่ระบบ
header-online = ออนไลน์
header-offline = ออฟไลน์
header-connecting = กำลังเชื่อมต่อ
header-no-token = ไม่มีโทเคน: กด S เพื่อเข้าสู่ระบบ
header-session-expired = เซสชันหมดอายุ: กด S เพื่อเข้าสู่ระบบ
header-token = โทเคน { $left }
header-cannot-decide-short = อนุมัติ/ปฏิเสธไม่ได้
header-read-only = อ่านอย่างเดียว

## Rows of the queue

row-held = { $verb }ใน { $n } วิ
row-held-short = { $verb } { $n } วิ
row-held-undo = { $key } ถอน
row-deleted = ลบแล้ว
row-not-found = ไม่พบ
row-gone = หายไป
row-loading = กำลังโหลด…
row-error = ผิดพลาด
row-outcome-unknown = ยังไม่รู้ผล
row-outcome-unknown-short = ไม่รู้ผล
row-student-id = นักเรียน { $id }…

## Queue pane

queue-title = คิว { $n }
queue-count-pending = รอพิจารณา { $n }
queue-count-approved = อนุมัติแล้ว { $n }
queue-count-declined = ปฏิเสธแล้ว { $n }
queue-count-gone = หายไป { $n }
queue-count-reading = กำลังอ่าน { $n }
queue-count-unknown = ไม่รู้ผล { $n }
queue-count-marked = เลือกไว้ { $n }
queue-col-status = สถานะ
queue-col-student = นักเรียน
queue-col-club = ชุมนุม
queue-col-year = ปี
queue-col-age = ผ่านมา
queue-sort = เรียง: { $order }
queue-sort-server = ตามเซิร์ฟเวอร์
queue-sort-age = เก่าสุดก่อน
queue-sort-club = ชุมนุม
queue-sort-status = สถานะ
queue-updated = อัปเดต { $ago }
queue-server-total = เซิร์ฟเวอร์: รอพิจารณา { $n }
queue-more-below = มีต่อด้านล่าง

## Empty states

empty-loading = กำลังโหลด…
empty-no-listing = ไม่มีคำขอ เซิร์ฟเวอร์นี้ไม่มีรายการคำขอ: กด i เพื่อเพิ่มรหัสคำขอเข้าชุมนุม
empty-not-signed-in = ยังไม่ได้เข้าสู่ระบบ: กด S เพื่อเข้าสู่ระบบ แล้วคิวจะโหลดขึ้นมา
empty-user-failed = อ่านข้อมูลผู้ใช้ที่เข้าสู่ระบบไม่ได้ (ดูบรรทัดสถานะ): กด r เพื่อลองอีกครั้ง
empty-loading-queue = กำลังโหลดคิว…
empty-queue-failed = โหลดคิวไม่ได้: { $error } กด r เพื่อลองอีกครั้ง
empty-no-pending = ไม่มีคำขอที่รอพิจารณา กด i เพื่อเพิ่มรหัสคำขอ หรือ r เพื่อโหลดใหม่
empty-no-match = ไม่มีคำขอที่ตรงกับตัวกรอง /{ $filter }  (กด / เพื่อแก้ไข, Esc ในช่องตัวกรองเพื่อยกเลิก)
empty-nothing-selected = ยังไม่ได้เลือกคำขอ
empty-no-club-match = ไม่พบชุมนุมที่ตรงกัน
empty-club-hint = กด c พิมพ์รหัสชุมนุม (หรือชื่อเพื่อค้นหา) แล้วกด Enter
empty-terminal-too-small = หน้าจอเล็กเกินไป ({ $width }x{ $height }): club-admin ต้องการอย่างน้อย { $min_width }x{ $min_height } (คอลัมน์ x แถว) ขยายหน้าต่าง หมุนโทรศัพท์เป็นแนวนอน หรือลดขนาดตัวอักษร
empty-terminal-too-small-keys = จนกว่าหน้าจอจะใหญ่ขึ้น ไม่มีปุ่มใดทำงาน ยกเว้น q (ออก) Ctrl-C (ออกทันทีและไม่ส่งการตัดสินที่พักไว้) z (ถอน) และ Ctrl-L (วาดใหม่)

## Detail pane

detail-title = คำขอ
detail-field-id = รหัส
detail-field-status = สถานะ
detail-field-student = นักเรียน
detail-field-club = ชุมนุม
detail-field-year = ปีการศึกษา
detail-field-asked = ส่งเมื่อ
detail-field-source = ที่มา
detail-field-levels = ระดับ
detail-class-no = เลขที่ { $n }
detail-source-listing = รายการจากเซิร์ฟเวอร์
detail-source-manual = เพิ่มด้วยรหัส
detail-last-action = ทำรายการล่าสุดไม่สำเร็จ: { $error }
detail-last-read = อ่านล่าสุดไม่สำเร็จ: { $error }
detail-reread-in = จะอ่านใหม่เองใน { $secs } วินาที (Enter: อ่านเดี๋ยวนี้)
detail-reread-now = กำลังอ่านใหม่
detail-level-id-only = เฉพาะรหัส
detail-level-compact = ย่อ
detail-level-default = ปกติ
detail-level-detailed = ละเอียด

## Club lookup pane

club-title = ค้นหาชุมนุม (c)
club-field-label = รหัสหรือชื่อ:
club-field-name = ชื่อ
club-field-about = รายละเอียด
club-field-people = จำนวน
club-field-colours = สี
club-staff-count = กรรมการ { $n } คน
club-contacts = ช่องทางติดต่อ ({ $n })
club-staff-list = กรรมการ ({ $n })
club-member-list = สมาชิก ({ $n })
club-footer = ระดับการดึงข้อมูล { $level } (f/F) · n เพิ่มช่องทางติดต่อ
club-footer-read = ระดับการดึงข้อมูล { $level } (f/F)
club-loading = กำลังโหลด…
club-searching = กำลังค้นหา…
club-hint-look-up = ค้นหา
club-hint-cancel = ยกเลิก

## Queue title while a filter hides rows

queue-shown = แสดง { $n }

row-held-unsent = { $action ->
    [approve] พักอนุมัติ
    [decline] พักปฏิเสธ
   *[delete] พักลบ
}
row-request-id = คำขอ { $id }…
queue-sort-loaded-only = เรียง: { $order } เฉพาะ { $n } รายการที่โหลด

## Header where it is narrow

header-no-token-short = ไม่มีโทเคน
header-session-expired-short = หมดอายุ
detail-decided-elsewhere = ผู้อื่น{ $status }ระหว่างที่อยู่ในคิวนี้
detail-decided-by = { $by } { $status } { $ago } (ในอีกเซสชันหนึ่ง)
