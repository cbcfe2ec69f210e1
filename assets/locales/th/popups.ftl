# club-admin pop-ups, Thai (ภาษาไทย): same keys and $placeholders as en/popups.ftl.
# Thai has one plural form: a count needs no select. $action (approve, decline, delete)
# selects the verb: อนุมัติ, ปฏิเสธ, ลบ.

## Help (?)

popup-help-title = ปุ่มลัด (กด ? หรือ Esc เพื่อปิด)
popup-help-search = ค้นหา:
popup-help-commands = คำสั่ง (:)
popup-help-no-match = ไม่พบปุ่มที่ตรงกับ "{ $query }"

## Help sections of the pop-ups' keys

popup-section-confirm = การยืนยัน
popup-section-quit-held = ออกขณะมีการอนุมัติ/ปฏิเสธรอส่ง (q)
popup-section-resume-held = กลับจากการพักโปรแกรมขณะมีการอนุมัติ/ปฏิเสธถึงเวลาส่ง (Ctrl-Z, fg)
popup-section-filter = ตัวกรอง (/)
popup-section-command = บรรทัดคำสั่ง (:)
popup-section-add-ids = เพิ่มรหัส (i)
popup-section-sign-in = เข้าสู่ระบบ (S)
popup-section-contact = เพิ่มช่องทางติดต่อ (n): เลือกประเภท แล้วกรอกข้อมูล

## Pop-up keys: the word shown for typing, hint bar labels, help texts

popup-key-type = พิมพ์
popup-hint-search = ค้นหา
popup-hint-scroll = เลื่อน
popup-hint-close = ปิด
popup-hint-confirm = ยืนยัน
popup-hint-cancel = ยกเลิก
popup-hint-choose = เลือกปุ่ม
popup-hint-press = กด
popup-hint-ids = รหัส
popup-hint-add = เพิ่ม
popup-hint-sign-in = เข้าสู่ระบบ
popup-hint-toggle-save = บันทึก เปิด/ปิด
popup-hint-copy-address = คัดลอกที่อยู่
popup-hint-run = สั่งงาน
popup-hint-keep = ใช้ตัวกรองนี้
popup-hint-undo = กลับไปแบบเดิม
popup-hint-type-value = ประเภท/ข้อมูล
popup-hint-type = ประเภท
popup-hint-value = ข้อมูล
popup-hint-send-quit = ส่งเลยแล้วออก
popup-hint-discard-quit = ทิ้งแล้วออก
popup-hint-stay = อยู่ต่อ
popup-hint-send-now = ส่งเลย
popup-hint-hold-again = รอต่อ
popup-hint-discard = ทิ้ง

popup-help-type-search = พิมพ์เพื่อค้นหาปุ่ม
popup-help-scroll-up = เลื่อนขึ้น
popup-help-scroll-down = เลื่อนลง
popup-help-page-up = เลื่อนขึ้นหนึ่งหน้า
popup-help-page-down = เลื่อนลงหนึ่งหน้า
popup-help-home = ไปบรรทัดแรก
popup-help-end = ไปบรรทัดสุดท้าย
popup-help-close-help = ปิดหน้าช่วยเหลือ (กด ? ก็ได้)
popup-help-close-history = ปิดประวัติ (กด H ก็ได้)
popup-history-title = ประวัติของทีม (กด H หรือ Esc เพื่อปิด)
popup-history-loading = กำลังอ่านบันทึกการตรวจสอบ…
popup-history-empty = ยังไม่มีการตัดสินที่บันทึกไว้สำหรับเซิร์ฟเวอร์นี้
popup-history-failed = อ่านประวัติไม่ได้: { $why }
popup-history-shown = { $n } รายการ ล่าสุดอยู่บน (รายการเก่ากว่านี้ดูด้วย { $command } history)
popup-history-found = ตรงกับคำค้น { $found } จาก { $n } รายการ (ไม่แยกตัวพิมพ์ใหญ่เล็ก: พิมพ์ h แทน H)
popup-history-more = แสดงเฉพาะ { $n } รายการล่าสุด: พิมพ์เพื่อค้นรายการที่เก่ากว่า (หรือใช้ { $command } history)
popup-history-more-found = แสดงเฉพาะ { $n } รายการล่าสุดที่ตรงกับคำค้น: พิมพ์เพิ่มเพื่อค้นให้แคบลง
popup-history-no-match = ไม่พบการตัดสินที่ตรงกับ "{ $query }"
history-sign-in-first = ประวัติของทีมจะแสดงเมื่อเข้าสู่ระบบแล้ว: กด { $key } เพื่อเข้าสู่ระบบ
history-after-crash = ตัดสินผลหลังโปรแกรมหยุดกะทันหัน
history-already = มีผู้อื่นทำไว้แล้ว คำสั่งนี้ไม่ได้เปลี่ยนอะไร
detail-history = ประวัติ
popup-help-confirm = ยืนยัน
popup-help-cancel = ยกเลิก
popup-help-choose = สลับระหว่างปุ่มยกเลิกกับปุ่มดำเนินการ
popup-help-press = กดปุ่มที่เลือกไว้
popup-help-type-ids = พิมพ์หรือวางรหัสคำขอเข้าชุมนุม
popup-help-add-ids = เพิ่มรหัสเข้าคิว
popup-help-close-no-add = ปิดโดยไม่เพิ่ม
popup-help-sign-in = ตรวจโทเคนที่วางแล้วใช้งาน
popup-help-toggle-save = บันทึกโทเคนลงไฟล์ส่วนตัว หรือไม่บันทึก
popup-help-copy-address = คัดลอกที่อยู่สำหรับเข้าสู่ระบบไปยังคลิปบอร์ด (OSC 52 ใช้ผ่าน SSH ได้) แล้วเปิดในเบราว์เซอร์ของโทรศัพท์หรือคอมพิวเตอร์
popup-help-close-no-sign-in = ปิดโดยไม่เข้าสู่ระบบ
popup-help-run = สั่งงานตามคำสั่ง
popup-help-close-no-run = ปิดโดยไม่สั่งงาน
popup-help-keep-filter = ใช้ตัวกรองนี้ต่อ
popup-help-filter-before = กลับไปใช้ตัวกรองเดิม
popup-help-type-value = สลับระหว่างประเภทกับข้อมูล
popup-help-prev-type = ประเภทช่องทางก่อนหน้า
popup-help-next-type = ประเภทช่องทางถัดไป
popup-help-to-value = ไปที่ช่องข้อมูล
popup-help-add-contact = เพิ่มช่องทางติดต่อ
popup-help-send-held = ส่งการอนุมัติ/ปฏิเสธที่รอไว้ทันที แล้วออกเมื่อเซิร์ฟเวอร์ตอบ
popup-help-discard-held = ทิ้งการอนุมัติ/ปฏิเสธที่รอไว้ (ไม่ส่ง) แล้วออก
popup-help-stay = อยู่ต่อ การอนุมัติ/ปฏิเสธที่รอไว้จะส่งเมื่อครบเวลา
popup-help-resume-send = ส่งการอนุมัติ/ปฏิเสธที่หมดเวลารอระหว่างที่พักโปรแกรมไว้
popup-help-resume-hold = รอต่อ: เริ่มนับเวลารอใหม่ (z ยกเลิกรายการล่าสุดได้)
popup-help-resume-discard = ทิ้งไป (ไม่ส่ง บันทึกว่ายกเลิก)

## Confirmation of a delete or of a decision on marked rows

confirm-title = { $action ->
    [approve] ยืนยันการอนุมัติ
    [decline] ยืนยันการปฏิเสธ
   *[delete] ยืนยันการลบ
}
confirm-button = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
}
confirm-cancel = ยกเลิก
confirm-one = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
}คำขอเข้าชุมนุม { $id } ใช่ไหม?
confirm-many = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
}คำขอที่เลือกไว้ { $n } รายการ ใช่ไหม?
confirm-many-of-club = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
}คำขอที่เลือกไว้ { $n } รายการ ของ { $club } ใช่ไหม?
confirm-hidden = ในจำนวนนี้ { $n } รายการถูกตัวกรองปัจจุบันซ่อนอยู่
confirm-held-elsewhere = ในจำนวนนี้ { $n } รายการถูกพักไว้ในอีกเซสชันหนึ่ง ({ $by }): { $which } ฝั่งที่ถึงเซิร์ฟเวอร์ก่อนเป็นผู้ตัดสิน
confirm-held-more = และอีก { $n } รายการ
confirm-delete-final = ลบแล้วย้อนกลับไม่ได้
confirm-cancelled = { $action ->
    [approve] ยกเลิกการอนุมัติแล้ว
    [decline] ยกเลิกการปฏิเสธแล้ว
   *[delete] ยกเลิกการลบแล้ว
}

## Quitting with decisions held (q)

popup-quit-title = ออกจากโปรแกรม?
popup-quit-held = ยังไม่ได้ส่งการอนุมัติ/ปฏิเสธ { $n } รายการ (คำขอ { $requests } รายการ):
popup-quit-held-row = { $action ->
    [approve] อนุมัติ
    [decline] ปฏิเสธ
   *[delete] ลบ
} { $what }
popup-quit-held-requests = คำขอ { $n } รายการ
popup-quit-held-more = … และอีก { $n } รายการ

## Back from a suspend (Ctrl-Z, fg)

popup-resume-title = กลับมาจากการพักโปรแกรม
popup-resume-held = การอนุมัติ/ปฏิเสธ { $n } รายการ (คำขอ { $requests } รายการ) หมดเวลารอระหว่างที่พักโปรแกรมไว้ ยังไม่ได้ส่ง:

## Add ids (i)

popup-add-ids-title = เพิ่มรหัสคำขอเข้าชุมนุม
popup-add-ids-text = วางหรือพิมพ์รหัส คั่นด้วยช่องว่าง จุลภาค หรือขึ้นบรรทัดใหม่
popup-add-ids-label = รหัส:
popup-add-ids-empty = พิมพ์หรือวางรหัสคำขอเข้าชุมนุมอย่างน้อยหนึ่งรหัส
popup-add-ids-bad = ไม่ใช่รหัสคำขอเข้าชุมนุม (UUID): { $ids }

## Sign in (S)

popup-sign-in-title = เข้าสู่ระบบ
popup-sign-in-open = เปิดที่อยู่นี้ในเบราว์เซอร์บนคอมพิวเตอร์ของคุณเอง แล้วเข้าสู่ระบบ:
popup-sign-in-paste = จากนั้นวางโทเคน หรือวางหน้า JSON ทั้งหน้าที่ได้ในตอนท้าย:
popup-sign-in-token = โทเคน:
popup-sign-in-save = บันทึกโทเคนลงไฟล์ส่วนตัว (0600) ไว้ใช้ครั้งหน้า
popup-sign-in-memory = โทเคนจะเก็บไว้ในหน่วยความจำเท่านั้น
popup-not-signed-in = ยังไม่ได้เข้าสู่ระบบ: กด S เพื่อเข้าสู่ระบบ
popup-token-empty = ยังไม่ได้วางอะไรเลย
popup-token-no-access-token = JSON ที่วางไม่มี data.access_token
popup-token-malformed = ข้อความนี้ไม่ใช่โทเคน (มีช่องว่างหรืออักขระควบคุม)

## Filter line (/)

popup-filter-label = ตัวกรอง (ตรง { $n } รายการ): /

## New club contact (n)

form-contact-title = เพิ่มช่องทางติดต่อของชุมนุม
form-contact-club = ชุมนุม:
form-contact-type-label = ประเภท:
form-contact-value = ข้อมูล:
form-contact-type = { $kind ->
    [phone] โทรศัพท์
    [email] อีเมล
    [website] เว็บไซต์
    [line] ไลน์
    [facebook] เฟซบุ๊ก
    [instagram] อินสตาแกรม
    [discord] ดิสคอร์ด
    [other] อื่นๆ
   *[unknown] { $kind }
}
form-contact-empty = กรอกข้อมูลก่อน
form-contact-too-long = ไม่เกิน { $n } ตัวอักษร
form-contact-control = ห้ามมีอักขระควบคุม
form-contact-invalid = { $value } ไม่ใช่{ $kind ->
    [phone] เบอร์โทรศัพท์
    [email] อีเมล
    [website] ที่อยู่เว็บไซต์
    [line] ไอดีไลน์
    [facebook] เพจเฟซบุ๊ก
    [instagram] ชื่อผู้ใช้อินสตาแกรม
    [discord] ชื่อหรือลิงก์ดิสคอร์ด
   *[other] ข้อมูล
}ที่ถูกต้อง: ต้องเป็น{ $format }
form-contact-format-email = ที่อยู่อีเมล เช่น club@school.ac.th
form-contact-format-phone = เบอร์โทรศัพท์ 9 ถึง 15 หลัก เช่น +66 81 234 5678
form-contact-format-website = ที่อยู่เว็บที่ขึ้นต้นด้วย https://
form-contact-format-line = ไอดีไลน์ 4 ถึง 20 ตัวจาก a-z 0-9 . _ - เช่น @robot_club
form-contact-format-instagram = ชื่ออินสตาแกรม 1 ถึง 30 ตัวจาก A-Z a-z 0-9 . _
form-contact-format-facebook = ที่อยู่ facebook.com หรือชื่อเพจ 5 ถึง 50 ตัวอักษร
form-contact-format-discord = ชื่อดิสคอร์ดหรือลิงก์เชิญ discord.gg
form-contact-format-other = ข้อความใดก็ได้ไม่เกิน 200 ตัวอักษร
